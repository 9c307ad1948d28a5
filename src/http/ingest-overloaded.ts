// The answer when the ingest queue is full (IngestOverloadedError): 503 problem+json with Retry-After.
import type { Context } from 'hono';
import { problem, problemResponse } from './problem.js';

/** Seconds a client is asked to wait when the ingest queue is full. */
export const OVERLOADED_RETRY_AFTER_SEC = 1;

export function overloadedResponse(c: Context): Response {
  return problemResponse(c, problem(503, 'overloaded', 'Overloaded', 'Too many results are waiting to be stored; retry shortly.'), {
    'retry-after': String(OVERLOADED_RETRY_AFTER_SEC),
  });
}

export const OVERLOADED_DESCRIPTION = `Too many results are waiting to be stored; retry after Retry-After (${OVERLOADED_RETRY_AFTER_SEC} s).`;
