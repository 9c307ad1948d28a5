// The one HTTP POST every HTTP channel and subscriber webhook sends with: through the probes' HTTP client under the
// context's target guard (every address the name resolves to is checked when the socket opens, and the socket connects
// to a checked one: no rebinding window), no redirect followed, bounded by the context's signal, the answer capped.
// The outcome is classified in outcome.ts: a receiver's answer exists only when its address passed the guard.
import { httpGet } from '../../net/http-get.js';
import type { SendContext, SendOutcome } from './channel.js';
import { ANSWER_CHARS, httpOutcome, unreached } from './outcome.js';

export { ANSWER_CHARS, retryAfterMs } from './outcome.js';

/**
 * Backstop on one POST for a caller whose signal never fires; the dispatcher's attempt timeout (10 s) ends it first.
 */
const POST_TIMEOUT_MS = 30_000;

export interface ChannelRequest {
  url: string;
  /** POST unless told: PUT where the receiver's API makes the request idempotent by its path (Matrix). */
  method?: 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json) or a string with its own content type in headers. */
  body: unknown;
}

export async function postRequest(
  request: ChannelRequest,
  ctx: Pick<SendContext, 'signal' | 'now' | 'guard'>,
): Promise<SendOutcome> {
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  const headers = {
    'user-agent': 'Warden/0.1 (notifications)',
    ...(typeof request.body === 'string' ? {} : { 'content-type': 'application/json' }),
    ...request.headers,
    // Not chunked: some receivers (serverless functions, old proxies) want the length up front.
    'content-length': String(Buffer.byteLength(body)),
  };
  const result = await httpGet({
    url: request.url,
    method: request.method ?? 'POST',
    headers,
    body,
    maxRedirects: 0,
    maxBodyBytes: ANSWER_CHARS * 4,
    signal: ctx.signal,
    timeoutMs: POST_TIMEOUT_MS,
    guard: ctx.guard,
  });
  if (!result.ok) return unreached(result.code, result.error);
  const { status, headers: replied, body: answer } = result.response;
  const retryAfter = replied['retry-after'];
  return httpOutcome(
    { status, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, body: answer.toString('utf8') },
    ctx.now,
  );
}
