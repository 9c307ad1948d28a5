// The problem+json shape for the OpenAPI document, and the answer to an overloaded ingest (503 with Retry-After).
import type { Context } from 'hono';
import { z } from 'zod';
import { PROBLEM_CONTENT_TYPE, problem, problemResponse } from './problem.js';

export const problemSchema = z
  .object({
    type: z.string().describe('https://warden.dev/problems/<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional().describe('The request path.'),
    errors: z
      .array(z.object({ path: z.string().describe('Where the invalid field is, e.g. body.players or query.status.'), message: z.string() }))
      .optional()
      .describe('One entry per invalid field.'),
  })
  .describe('RFC 9457 problem details.');

/** An OpenAPI response entry for an error status. */
export function problemContent(description: string) {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } };
}

/** Seconds a client is asked to wait when the ingest queue is full. */
export const OVERLOADED_RETRY_AFTER_SEC = 1;

export function overloadedResponse(c: Context): Response {
  return problemResponse(
    c,
    problem(503, 'overloaded', 'Overloaded', 'Too many results are waiting to be stored; retry shortly.'),
    { 'retry-after': String(OVERLOADED_RETRY_AFTER_SEC) },
  );
}
