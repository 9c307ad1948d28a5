// Every request has an id, sent back as X-Request-Id and in its log line: the client's when it offers a sane one.
import { randomBytes } from 'node:crypto';
import { requestId } from 'hono/request-id';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A longer id offered by a client is replaced by one of ours. */
const MAX_CHARS = 64;

/**
 * Our ids: a random prefix per process and a counter, in base 36 (`k3x9q2-1a7`). Unique within the process and,
 * with 8 random characters, across the processes of a cluster for log correlation; not secret, not a nonce. A fresh
 * randomUUID() per request cost more than the rest of a cached read's work.
 */
const PROCESS_PREFIX = randomBytes(6).readUIntBE(0, 6).toString(36).padStart(10, '0').slice(-8);
let counter = 0;

export function nextRequestId(): string {
  counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
  return `${PROCESS_PREFIX}-${counter.toString(36)}`;
}

/** The app's middleware: hono/request-id, with our length cap and our ids. */
export const requestIdMiddleware = requestId({
  headerName: REQUEST_ID_HEADER,
  limitLength: MAX_CHARS,
  generator: nextRequestId,
});

/** The same rule for the pre-router, which answers before the app: the offered id if hono/request-id would keep it. */
export function requestIdFor(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && offered.length > 0 && offered.length <= MAX_CHARS && !/[^\w\-=]/.test(offered)
    ? offered
    : nextRequestId();
}
