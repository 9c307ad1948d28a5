// gRPC servers: the standard health-checking protocol (grpc.health.v1.Health/Check), spoken over Node's own HTTP/2 on
// a guarded socket. The two tiny protobuf messages are encoded and decoded here, by hand.
import type { IncomingHttpHeaders } from 'node:http2';
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openHttp2 } from '../net/socket-exchange.js';
import { probeOver } from './exchange.js';
import { host, port } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const GRPC_LIMITS = {
  /** Response bytes read (a HealthCheckResponse is 2 bytes, 7 with its frame). */
  responseBytes: 64 * 1024,
  /** Characters of a grpc-message shown. */
  messageChars: 200,
} as const;

const CHECK_PATH = '/grpc.health.v1.Health/Check';
/** HealthCheckResponse.ServingStatus. */
const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
/** The gRPC status codes, by number. */
const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

export const grpcConfig = z
  .object({
    host: host(),
    port: port(),
    service: z
      .string({ error: 'expected a service name' })
      .max(200, { error: 'expected at most 200 characters' })
      .default('')
      .describe(
        'The service asked about, e.g. grpc.health.v1.Health or my.package.Orders; empty asks about the server as a whole.',
      ),
    tls: z.boolean().default(false).describe('Speak TLS (h2), else plain-text HTTP/2 (h2c).'),
    ignoreTls: z.boolean().default(false).describe('Accept an invalid or self-signed certificate.'),
  })
  .strict();

export const grpc = defineProbe({
  id: 'grpc',
  label: 'gRPC health',
  config: grpcConfig,
  probe: (config, ctx) => {
    const open = () =>
      openHttp2(ctx, config.host, config.port, config.tls ? { rejectUnauthorized: !config.ignoreTls } : undefined);
    return probeOver(open, ctx, (session, { finish }, elapsed) => {
      session.on('error', (error) => finish({ ok: false, error: describeGrpcError(error, ctx.timeoutMs) }));
      const stream = session.request({
        ':method': 'POST',
        ':path': CHECK_PATH,
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': `${Math.max(1, Math.round(ctx.timeoutMs))}m`,
        'user-agent': 'Warden/0.1 (status monitor)',
      });
      let headers: IncomingHttpHeaders = {};
      let trailers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('response', (received) => {
        headers = received;
      });
      stream.on('trailers', (received) => {
        trailers = received;
      });
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > GRPC_LIMITS.responseBytes)
          return finish({
            ok: false,
            error: `unexpected response: more than ${GRPC_LIMITS.responseBytes / 1024} KiB`,
          });
        chunks.push(chunk);
      });
      // A stream the server resets (RST_STREAM) before any answer ends with no headers, or only closes.
      const reset = () => ({
        ok: false,
        error: `the server ended the call without an answer (HTTP/2 code ${stream.rstCode ?? 'none'})`,
      });
      // The verdict is reached at the answer's end and given once the stream has closed: a session torn down with a
      // stream still open cancels it (an RST_STREAM to the server, an error object made and dropped here).
      let verdict: ProbeResult | undefined;
      stream.on('end', () => {
        verdict =
          headers[':status'] === undefined
            ? reset()
            : judge(headers, trailers, Buffer.concat(chunks), config, elapsed());
      });
      stream.on('error', (error) => finish({ ok: false, error: describeGrpcError(error, ctx.timeoutMs) }));
      stream.on('close', () => finish(verdict ?? reset()));
      stream.end(frame(encodeRequest(config.service)));
    });
  },
});

/** The verdict on a finished call: the HTTP status, grpc-status (in the trailers, or the headers of a trailers-only answer), then the serving status. */
function judge(
  headers: IncomingHttpHeaders,
  trailers: IncomingHttpHeaders,
  body: Buffer,
  config: z.output<typeof grpcConfig>,
  latencyMs: number,
): ProbeResult {
  const status = Number(headers[':status']);
  if (status !== 200)
    return { ok: false, error: `unexpected response: HTTP ${status} instead of a gRPC answer (is this a gRPC port?)` };
  const grpcStatus = Number(trailers['grpc-status'] ?? headers['grpc-status']);
  const code = GRPC_CODES[grpcStatus] ?? `status ${trailers['grpc-status'] ?? headers['grpc-status'] ?? 'missing'}`;
  const grpcMessage = decodeMessage(trailers['grpc-message'] ?? headers['grpc-message']);
  if (grpcStatus !== 0) {
    const said = grpcMessage ? `: ${grpcMessage}` : '';
    if (code === 'UNIMPLEMENTED')
      return {
        ok: false,
        error: `the server does not implement the gRPC health-checking protocol (${CHECK_PATH}: UNIMPLEMENTED${said})`,
      };
    if (code === 'NOT_FOUND')
      return {
        ok: false,
        error: `the server does not know the service ${JSON.stringify(config.service)} (NOT_FOUND${said})`,
      };
    return { ok: false, error: `the health check failed: ${code}${said}` };
  }
  const message = unframe(body);
  if (message === undefined) return { ok: false, error: 'unexpected response: not one gRPC message' };
  const serving = decodeResponse(message);
  if (serving === undefined) return { ok: false, error: 'unexpected response: not a HealthCheckResponse' };
  const name = SERVING_STATUS[serving] ?? `status ${serving}`;
  const data = { servingStatus: name, ...(config.service ? { service: config.service } : {}) };
  if (name !== 'SERVING')
    return {
      ok: false,
      error: `${config.service ? `the service ${JSON.stringify(config.service)}` : 'the server'} is ${name}`,
      data,
    };
  return { ok: true, latencyMs, message: `SERVING in ${latencyMs} ms`, data };
}

/** HealthCheckRequest { string service = 1; }: the field left out when empty, as protobuf does. */
export function encodeRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0);
  const bytes = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a]), varint(bytes.length), bytes]);
}

/** HealthCheckResponse { ServingStatus status = 1; }: the status, 0 when absent; undefined for bytes that are no message. */
export function decodeResponse(message: Buffer): number | undefined {
  let status = 0;
  let at = 0;
  while (at < message.length) {
    const key = readVarint(message, at);
    if (!key) return undefined;
    at = key.next;
    const field = Math.floor(key.value / 8);
    const wireType = key.value % 8;
    if (wireType === 0) {
      const value = readVarint(message, at);
      if (!value) return undefined;
      if (field === 1) status = value.value;
      at = value.next;
    } else if (wireType === 2) {
      const length = readVarint(message, at);
      if (!length || length.next + length.value > message.length) return undefined;
      at = length.next + length.value;
    } else if (wireType === 1 || wireType === 5) {
      at += wireType === 1 ? 8 : 4;
    } else {
      return undefined;
    }
  }
  return at === message.length ? status : undefined;
}

/** One gRPC length-prefixed message: no compression, a 4-byte big-endian length, the bytes. */
export function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

function unframe(body: Buffer): Buffer | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const length = body.readUInt32BE(1);
  return body.length === 5 + length ? body.subarray(5) : undefined;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function readVarint(buffer: Buffer, start: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let at = start; at < buffer.length && at < start + 10; at++) {
    const byte = buffer[at] as number;
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if (byte < 0x80) return { value, next: at + 1 };
  }
  return undefined;
}

/** grpc-message is percent-encoded (gRPC over HTTP/2, "Responses"). */
function decodeMessage(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(', ') : (value ?? '');
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // Left as sent.
  }
  return decoded.length > GRPC_LIMITS.messageChars ? `${decoded.slice(0, GRPC_LIMITS.messageChars)}…` : decoded;
}

function describeGrpcError(error: Error & { code?: string }, timeoutMs: number): string {
  // A stream cancelled because its session failed carries the session's error: that one says what went wrong.
  if (error.code === 'ERR_HTTP2_STREAM_CANCEL' && error.cause instanceof Error)
    return describeGrpcError(error.cause, timeoutMs);
  if (
    error.code === 'ERR_HTTP2_ERROR' ||
    error.code === 'ERR_HTTP2_SESSION_ERROR' ||
    error.code === 'ERR_HTTP2_STREAM_ERROR'
  )
    return `the server does not speak HTTP/2 here (is this a gRPC port?): ${error.message}`;
  if (error.code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return 'the TLS certificate is self-signed (set ignoreTls to accept it)';
  if (error.code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return 'the server did not answer in TLS (a plain-text gRPC port? leave tls off)';
  return describeNetworkError(error, timeoutMs);
}
