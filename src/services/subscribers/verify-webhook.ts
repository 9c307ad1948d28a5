// A webhook subscription's proof that its endpoint wants it: one POST, signed with the new secret like every delivery,
//   { "type": "subscription.verify", "timestamp": …, "data": { "challenge": "…", "page": { slug, title, url } } }
// answered 2xx with the challenge: the body is the challenge itself, or JSON { "challenge": "…" }. An endpoint that
// merely accepts anything (or echoes the whole request back) does not pass. The URL goes through the organization's
// target policy, as every later delivery does.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ValidationError } from '../../domain/errors.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import { nonPublicKind } from '../../net/address-ranges.js';
import { targetGuard } from '../../net/target-guard.js';
import { postRequest } from '../../notify/channels/http-send.js';
import { signatureHeaders } from '../../notify/channels/webhook.js';

export interface WebhookVerification {
  url: string;
  secret: string;
  policy: ProbeTargetPolicy;
  page: { slug: string; title: string; url: string };
  now: number;
}

export async function verifyWebhook(v: WebhookVerification): Promise<void> {
  const scheme = schemeRefusal(v.url, v.policy);
  if (scheme) throw refusal(scheme);
  const challenge = randomBytes(18).toString('base64url');
  const body = JSON.stringify({
    type: 'subscription.verify',
    timestamp: new Date(v.now).toISOString(),
    data: { challenge, page: v.page },
  });
  const id = `vrf_${randomBytes(12).toString('base64url')}`;
  const outcome = await postRequest(
    {
      url: v.url,
      headers: {
        ...signatureHeaders(v.secret, id, Math.floor(v.now / 1000), body),
        'content-type': 'application/json',
      },
      body,
    },
    { signal: AbortSignal.timeout(SUBSCRIBER_LIMITS.webhookVerifyTimeoutMs), now: v.now, guard: targetGuard(v.policy) },
  );
  if (outcome.kind !== 'sent') throw refusal(`the URL did not accept the verification request (${outcome.error})`);
  if (!answersChallenge(outcome.answer ?? '', challenge))
    throw refusal(
      'the URL accepted the verification request but did not answer its challenge (data.challenge, as the body or as JSON {"challenge": …})',
    );
}

/** Why the URL's scheme is refused: plain http only to a private address the organization may reach (a LAN receiver). */
export function schemeRefusal(address: string, policy: ProbeTargetPolicy): string | null {
  const url = new URL(address);
  if (url.protocol === 'http:' && (policy !== 'allow' || !privateHost(url.hostname)))
    return 'expected an https:// URL (http:// only reaches private addresses, where the organization allows them)';
  return null;
}

function answersChallenge(answer: string, challenge: string): boolean {
  if (answer.trim() === challenge) return true;
  try {
    const parsed = JSON.parse(answer) as { challenge?: unknown } | null;
    return parsed !== null && typeof parsed === 'object' && parsed.challenge === challenge;
  } catch {
    return false;
  }
}

/** An IP literal or `localhost`: http:// is allowed to these only (a name could resolve anywhere later). */
function privateHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || (isIP(bare) !== 0 && nonPublicKind(bare) !== undefined);
}

function refusal(message: string): ValidationError {
  return new ValidationError([{ path: 'webhook', message }], `The webhook was not subscribed: ${message}.`);
}
