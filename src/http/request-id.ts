// Every request has an id, sent back as X-Request-Id and in its log line: the client's when it offers a sane one.
import { randomUUID } from 'node:crypto';
import { requestId } from 'hono/request-id';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A longer id offered by a client is replaced by one of ours. */
const MAX_CHARS = 64;

/** The app's middleware: hono/request-id, with our length cap. */
export const requestIdMiddleware = requestId({ headerName: REQUEST_ID_HEADER, limitLength: MAX_CHARS });

/** The same rule for the pre-router, which answers before the app: the offered id if hono/request-id would keep it. */
export function requestIdFor(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && offered.length > 0 && offered.length <= MAX_CHARS && !/[^\w\-=]/.test(offered) ? offered : randomUUID();
}
