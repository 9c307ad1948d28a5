// A catalogue message as HTML: its words escaped, with markup (a <time>, a <b>) put in where its arguments stand.
import { escapeHtml } from './html-layout.js';
import type { MessageKey, MessageValues, Translator } from './i18n/index.js';

/** Marks where a markup argument goes; private-use characters, removed from every text argument first. */
const OPEN = '\ue000';
const CLOSE = '\ue001';
const MARKERS = /[\ue000\ue001]/g;

/**
 * The message with `text` arguments (plain text, escaped with the rest) and `markup` arguments (already HTML, kept
 * as they are): `htmlMessage(i18n, 'page.lastUpdated', {}, { time: timeHtml(…) })` → `Last updated <time …>…</time>`.
 */
export function htmlMessage(
  i18n: Translator,
  key: MessageKey,
  text: MessageValues = {},
  markup: Record<string, string> = {},
): string {
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(text))
    values[name] = typeof value === 'string' ? value.replace(MARKERS, '') : value;
  const names = Object.keys(markup);
  names.forEach((name, index) => {
    values[name] = `${OPEN}${index}${CLOSE}`;
  });
  const escaped = escapeHtml(i18n.t(key, values));
  if (names.length === 0) return escaped;
  return escaped.replace(/\ue000(\d+)\ue001/g, (_, index: string) => markup[names[Number(index)] as string] ?? '');
}
