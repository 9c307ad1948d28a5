// Caps request bodies (413 problem+json beyond the limit), counting the bytes actually read when there is no Content-Length.
import type { Env, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { problem, problemResponse } from '../problem.js';

export function limitBody<E extends Env>(maxBytes: number): MiddlewareHandler<E> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      problemResponse(
        c,
        problem(413, 'body-too-large', 'Body too large', `The body must be at most ${maxBytes} bytes.`),
      ),
  });
}
