// The subscribe block's community choices: a Discord or Slack channel subscribed by its webhook URL. Each is a plain
// form posting `discord` or `slack` to the page's subscribe path (answered with a notice page without script); the
// page script (subscribe-form-script.ts) posts it as JSON instead and shows the answer beside the field, reading the
// words it needs from the form's data attributes, in the page's language.
import { escapeHtml } from './html-layout.js';
import type { MessageKey, Translator } from './i18n/index.js';

export type ChannelChoice = 'discord' | 'slack';

/** Where a subscribed Discord channel opens (its members see it; others are told they cannot). */
export function discordChannelUrl(guildId: string, channelId: string): string {
  return `https://discord.com/channels/${encodeURIComponent(guildId)}/${encodeURIComponent(channelId)}`;
}

/** The words of a subscribed Discord channel, from Discord's answer (ids: the webhook API names no guild or channel). */
export function discordSubscribedText(
  i18n: Translator,
  webhook: { id: string; name: string | null; guildId: string | null; channelId: string | null },
): string {
  return i18n.t('subscribe.discordSubscribed', {
    channel: webhook.channelId ?? '?',
    guild: webhook.guildId ?? '?',
    webhook: webhook.name ?? webhook.id,
  });
}

const WORDS: Record<ChannelChoice, { summary: MessageKey; label: MessageKey; hint: MessageKey; placeholder: string }> =
  {
    discord: {
      summary: 'subscribe.discord',
      label: 'subscribe.discordUrl',
      hint: 'subscribe.discordHint',
      placeholder: 'https://discord.com/api/webhooks/…',
    },
    slack: {
      summary: 'subscribe.slack',
      label: 'subscribe.slackUrl',
      hint: 'subscribe.slackHint',
      placeholder: 'https://hooks.slack.com/services/…',
    },
  };

/** One choice, folded: its summary names the channel; the form inside posts the webhook URL. */
export function channelChoiceHtml(i18n: Translator, choice: ChannelChoice, action: string): string {
  const words = WORDS[choice];
  const text = (key: MessageKey) => escapeHtml(i18n.t(key));
  const id = `subscribe-${choice}`;
  // What the script shows: the answer's words, the placeholders filled from Discord's answer.
  const done =
    choice === 'discord'
      ? i18n.t('subscribe.discordSubscribed', { channel: '{channel}', guild: '{guild}', webhook: '{webhook}' })
      : i18n.t('subscribe.slackPending');
  const data =
    ` data-subscribe="${choice}" data-done="${escapeHtml(done)}" data-failed="${text('notice.failed')}"` +
    ` data-sending="${text('subscribe.sending')}"` +
    (choice === 'discord' ? ` data-open="${text('subscribe.discordOpen')}"` : '');
  return (
    `<details class="subscribe-choice" data-testid="${id}-choice"><summary>${text(words.summary)}</summary>` +
    `<form method="post" action="${escapeHtml(action)}"${data}>` +
    `<div class="field"><label for="${id}">${text(words.label)}</label>` +
    `<p class="hint" id="${id}-hint">${text(words.hint)}</p>` +
    `<input id="${id}" name="${choice}" type="url" inputmode="url" maxlength="2048" autocomplete="off" spellcheck="false"` +
    ` placeholder="${escapeHtml(words.placeholder)}" required aria-describedby="${id}-hint ${id}-answer">` +
    `<div class="answer" id="${id}-answer" data-testid="${id}-answer" aria-live="polite"></div></div>` +
    `<button class="button" type="submit">${text('subscribe.channelButton')}</button></form></details>`
  );
}
