// A Discord subscription's proof that the webhook exists: Discord's own GET /webhooks/{id}/{token}, through the
// organization's target guard like every later delivery. It answers who the webhook posts as and where (the guild and
// channel); a deleted webhook answers 404 Unknown Webhook, a wrong token 401 Invalid Webhook Token.
import { ValidationError } from '../../domain/errors.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import { httpGet } from '../../net/http-get.js';
import { targetGuard } from '../../net/target-guard.js';
import { schemeRefusal } from './verify-webhook.js';

/** What Discord says of the webhook: its id and name, and the guild and channel it posts in. */
export interface DiscordWebhookInfo {
  id: string;
  name: string | null;
  guildId: string | null;
  channelId: string | null;
}

export async function verifyDiscordWebhook(url: string, policy: ProbeTargetPolicy): Promise<DiscordWebhookInfo> {
  const scheme = schemeRefusal(url, policy);
  if (scheme) throw refusal(scheme);
  const result = await httpGet({
    url: url.replace(/\/$/, ''),
    method: 'GET',
    headers: { 'user-agent': 'Warden/0.1 (notifications)', accept: 'application/json' },
    maxRedirects: 0,
    maxBodyBytes: 16_384,
    signal: AbortSignal.timeout(SUBSCRIBER_LIMITS.webhookVerifyTimeoutMs),
    timeoutMs: SUBSCRIBER_LIMITS.webhookVerifyTimeoutMs,
    guard: targetGuard(policy),
  });
  if (!result.ok) throw refusal(`Discord could not be asked about the webhook (${result.error})`);
  const { status, body } = result.response;
  const answer = parsed(body.toString('utf8'));
  if (status !== 200) {
    // Discord's own words: `Unknown Webhook` (10015), `Invalid Webhook Token` (50027).
    const said = typeof answer.message === 'string' ? `${answer.message}` : 'no reason given';
    const code = typeof answer.code === 'number' ? ` (code ${answer.code})` : '';
    throw refusal(`Discord answered HTTP ${status}: ${said}${code}`);
  }
  if (typeof answer.id !== 'string') throw refusal('Discord answered something that is not a webhook');
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { id: answer.id, name: text(answer.name), guildId: text(answer.guild_id), channelId: text(answer.channel_id) };
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function refusal(message: string): ValidationError {
  return new ValidationError([{ path: 'discord', message }], `The Discord webhook was not subscribed: ${message}.`);
}
