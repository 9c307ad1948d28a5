// A POST to an address a visitor gave (a page subscriber's webhook): through the probes' HTTP client, so every address
// the name resolves to is checked against the organization's target policy when the socket opens (no rebinding window),
// no redirect is followed, and the answer is capped. The status maps to an outcome as for the channels (http-send.ts).
import { httpGet } from '../probes/http-get.js';
import type { TargetGuard } from '../probes/target-guard.js';
import type { SendOutcome } from './channel.js';
import { ANSWER_CHARS, retryAfterMs } from './http-send.js';

export interface GuardedPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  guard: TargetGuard;
}

export async function guardedPost(request: GuardedPost, ctx: { signal: AbortSignal; now: number; timeoutMs: number }): Promise<SendOutcome> {
  const result = await httpGet({
    url: request.url,
    method: 'POST',
    headers: { 'user-agent': 'Warden/0.1 (notifications)', 'content-type': 'application/json', ...request.headers },
    body: request.body,
    maxRedirects: 0,
    maxBodyBytes: ANSWER_CHARS * 4,
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs,
    guard: request.guard,
  });
  // A refused address will be refused the next time too.
  if (!result.ok) return { kind: result.error.startsWith('refused:') ? 'dead' : 'retry', status: null, error: result.error };
  const { status, headers, body } = result.response;
  const text = body.toString('utf8');
  const answer = text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
  if (status >= 200 && status < 300) return { kind: 'sent', status, answer };
  if (status === 429) {
    const retryAfter = headers['retry-after'];
    const afterMs = retryAfterMs(typeof retryAfter === 'string' ? retryAfter : null, ctx.now);
    return { kind: 'retry', status, error: 'rate limited by the receiver', answer, ...(afterMs !== undefined ? { afterMs } : {}) };
  }
  if (status === 408 || status === 425 || status >= 500) return { kind: 'retry', status, error: `HTTP ${status}`, answer };
  return { kind: 'dead', status, error: `HTTP ${status}`, answer };
}
