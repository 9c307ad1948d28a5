// English: the reference catalogue. Every other language has exactly these keys (i18n.test.ts checks), as ICU messages
// (https://unicode-org.github.io/icu/userguide/format_parse/messages/): {name} arguments, plural and select.
// Keys are grouped by where they show: page.* (the HTML page), md.* (Markdown), feed.* (RSS), og.* (og.png),
// embed.* (the widget), state.* (the state words every form shares).
export const en = {
  'state.operational': 'Operational',
  'state.degraded': 'Degraded',
  'state.down': 'Down',
  'state.maintenance': 'Maintenance',
  'state.unknown': 'Unknown',
} as const;

export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;
