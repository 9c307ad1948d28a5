// Reads a JSON request body under a byte cap (Content-Length checked first, then counted while streaming), whatever its content type.
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ValidationError } from '../../domain/errors.js';
import type { App } from '../app.js';

export type JsonBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'too-large'; maxBytes: number };

/** A body that is not JSON throws a ValidationError naming `body`; an oversized one is reported, for the route to answer 400 or 413. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<JsonBody> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) return { kind: 'too-large', maxBytes };
  const stream = c.req.raw.body;
  if (!stream) return { kind: 'empty' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { kind: 'too-large', maxBytes };
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch (error) {
    throw new ValidationError([{ path: 'body', message: `not valid JSON (${error instanceof Error ? error.message : 'parse error'})` }], 'The body is not valid JSON.');
  }
}

export function tooLargeMessage(maxBytes: number): string {
  return `the body is larger than ${maxBytes} bytes`;
}

/**
 * Puts the route, body schema included, in the OpenAPI document, and returns it without the body for app.openapi():
 * the handler reads the body itself with readJsonBody, so caps and malformed JSON get problem+json answers
 * rather than the validator's 415 and 500.
 */
export function withBodyReadByHandler<R extends RouteConfig>(app: App, route: R): R {
  const { middleware: _middleware, ...documented } = route;
  app.openAPIRegistry.registerPath(documented);
  const { body: _documented, ...request } = route.request ?? {};
  return { ...route, hide: true, request };
}
