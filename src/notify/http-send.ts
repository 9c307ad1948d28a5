// One bounded HTTP POST for every HTTP channel: a timeout (the context's signal), a cap on the answer kept, and the
// status mapped to an outcome: 2xx sent; 429 retry after Retry-After; 408, 425, 5xx and network errors retry; other 4xx dead.

import type { SendContext, SendOutcome } from './channel.js';

/** Characters of a receiver's answer kept in the delivery log. */
export const ANSWER_CHARS = 2000;

export interface ChannelRequest {
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json) or a string with its own content type in headers. */
  body: unknown;
}

export async function postRequest(request: ChannelRequest, ctx: SendContext): Promise<SendOutcome> {
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  const headers = { 'user-agent': 'Warden/0.1 (notifications)', ...(typeof request.body === 'string' ? {} : { 'content-type': 'application/json' }), ...request.headers };
  let res: Response;
  try {
    res = await fetch(request.url, { method: 'POST', headers, body, signal: ctx.signal, redirect: 'manual' });
  } catch (error) {
    return { kind: 'retry', status: null, error: describe(error) };
  }
  const answer = await readCapped(res);
  if (res.status >= 200 && res.status < 300) return { kind: 'sent', status: res.status, answer };
  if (res.status === 429) {
    const afterMs = retryAfterMs(res.headers.get('retry-after'), ctx.now);
    return { kind: 'retry', status: 429, error: 'rate limited by the receiver', answer, ...(afterMs !== undefined ? { afterMs } : {}) };
  }
  if (res.status === 408 || res.status === 425 || res.status >= 500) return { kind: 'retry', status: res.status, error: `HTTP ${res.status}`, answer };
  return { kind: 'dead', status: res.status, error: `HTTP ${res.status}`, answer };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The answer's first bytes only: a hostile receiver cannot make us hold a large body. */
async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // What arrived before the error is the answer we keep.
  } finally {
    reader.cancel().catch(() => {});
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timed out';
    return cause?.code ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}
