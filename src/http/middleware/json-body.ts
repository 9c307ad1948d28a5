// Reads a JSON request body under a byte cap (Content-Length checked first, then counted while reading, whatever the
// framing) and a nesting depth (JSON_MAX_DEPTH), whatever its content type.
import type { IncomingMessage } from 'node:http';
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ValidationError, WardenError } from '../../domain/errors.js';
import { JSON_MAX_DEPTH, textNestsDeeper, tooDeepMessage } from '../../domain/json-depth.js';
import type { App } from '../env.js';

export type JsonBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'too-large'; maxBytes: number };

/** Node's request, which @hono/node-server passes as `c.env.incoming` (`rawBody`: a body already read). */
export type IncomingWithBody = IncomingMessage & { rawBody?: Buffer };

export interface JsonBodyOptions {
  /**
   * Arrays and objects inside one another, at most (400 beyond: a ValidationError naming `body`). Infinity for a route
   * that judges the parts of its body one by one (relay batches): JSON.parse itself does not recurse.
   */
  maxDepth?: number;
}

/** A body over its route's byte cap: 413 (what the client still sends is discarded for a moment, then the connection closed). */
export class BodyTooLargeError extends WardenError {
  readonly status = 413;
  readonly title = 'Body too large';
  readonly code = 'body-too-large';
  constructor(readonly maxBytes: number) {
    super(`The body must be at most ${maxBytes} bytes.`);
  }
}

/**
 * A body that is not JSON, or nests deeper than allowed, throws a ValidationError naming `body`; an oversized one is
 * reported, for the route to answer 413.
 */
export async function readJsonBody(c: Context, maxBytes: number, options: JsonBodyOptions = {}): Promise<JsonBody> {
  const incoming = (c.env as { incoming?: IncomingWithBody } | undefined)?.incoming;
  if (incoming && typeof incoming.on === 'function' && !(incoming.rawBody instanceof Buffer))
    return readIncomingJson(incoming, maxBytes, options);
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) return { kind: 'too-large', maxBytes };
  const bytes = await readBodyBytes(c, maxBytes);
  return bytes.length > maxBytes ? { kind: 'too-large', maxBytes } : parseJsonBody(bytes, options.maxDepth);
}

/** The same from Node's request itself, for the pre-router: both read a body the same way. */
export async function readIncomingJson(
  incoming: IncomingMessage,
  maxBytes: number,
  options: JsonBodyOptions = {},
): Promise<JsonBody> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return { kind: 'too-large', maxBytes };
  const bytes = await readIncoming(incoming, maxBytes);
  return bytes.length > maxBytes ? { kind: 'too-large', maxBytes } : parseJsonBody(bytes, options.maxDepth);
}

export function parseJsonBody(bytes: Buffer, maxDepth = JSON_MAX_DEPTH): JsonBody {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  checkJsonDepth(text, maxDepth);
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch (error) {
    throw new ValidationError(
      [{ path: 'body', message: `not valid JSON (${error instanceof Error ? error.message : 'parse error'})` }],
      'The body is not valid JSON.',
    );
  }
}

/** Throws the 400 naming `body` for a JSON text nested deeper than maxDepth (a scan, before anything parses it). */
export function checkJsonDepth(text: string, maxDepth = JSON_MAX_DEPTH): void {
  if (maxDepth !== Number.POSITIVE_INFINITY && textNestsDeeper(text, maxDepth))
    throw new ValidationError([{ path: 'body', message: tooDeepMessage(maxDepth) }], 'The body is nested too deeply.');
}

/**
 * Reads Node's request until its end, or until just past maxBytes (then it stops reading and returns what it has,
 * longer than maxBytes). Cheaper than the web stream of a Request, which @hono/node-server builds on first use.
 */
export function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', done);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        incoming.pause();
        done();
      }
    };
    const onEnd = () => done();
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', done);
  });
}

/** How long, and how much, a refused body is discarded after the answer before its connection is closed. */
export const DISCARD_AFTER_REFUSAL = { ms: 500, bytes: 64 * 1024 * 1024 } as const;

/**
 * For a request answered before its body ended (a 413): what the client still sends is discarded, never kept, for a
 * moment (so it reads the answer rather than a reset), then the connection is closed. Without it the paused request
 * would hold its socket until the keep-alive timeout. @hono/node-server does the same for the app's answers.
 */
export function discardRestThenClose(incoming: IncomingMessage): void {
  if (incoming.complete || incoming.destroyed) return;
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    incoming.off('data', onData);
    incoming.socket?.destroySoon();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_AFTER_REFUSAL.bytes) close();
  };
  const timer = setTimeout(close, DISCARD_AFTER_REFUSAL.ms);
  timer.unref();
  incoming.on('data', onData);
  incoming.once('end', () => clearTimeout(timer));
  incoming.resume();
}

/**
 * The body's bytes, straight from Node's request when served by @hono/node-server, else from the Request's stream;
 * reading stops just past maxBytes (the result is then longer than maxBytes), whatever the framing.
 */
export async function readBodyBytes(c: Context, maxBytes: number): Promise<Buffer> {
  const incoming = (c.env as { incoming?: IncomingWithBody } | undefined)?.incoming;
  if (incoming?.rawBody instanceof Buffer) return incoming.rawBody;
  if (incoming && typeof incoming.on === 'function') return readIncoming(incoming, maxBytes);
  const stream = c.req.raw.body;
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(chunks, size);
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
