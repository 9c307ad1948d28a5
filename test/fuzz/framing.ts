// Requests as raw bytes on a TCP connection (node:net): broken chunked encoding, lying Content-Length, truncated bodies, odd request lines and headers.
import fc from 'fast-check';
import { bodyBytes, type HttpRequest } from './requests.js';
import type { FuzzServer } from './server.js';

export interface FramedRequest {
  kind: 'raw';
  /** The bytes sent, in order; the connection's write side is closed after them (the server sees the end). */
  bytes: Buffer;
  /** The request line and what was done to the framing, for the report. */
  mutation: string;
  /** The bytes stop short of a whole request: the server waits for more until the client ends its side. */
  truncated: boolean;
}

/** Framings and raw requests that leave the server waiting for bytes that never come. */
const TRUNCATED = new Set([
  'chunked, size larger than the data',
  'chunked, no last chunk',
  'chunked, huge size',
  'Content-Length larger than the body',
  'Content-Length huge',
  'truncated headers',
  'empty connection',
  'no request line',
]);

type Framing = (head: string, body: Buffer, request: HttpRequest, host: string) => Buffer;

const CRLF = '\r\n';
const join = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));

/** How a well-formed request is framed badly; `head` is the request line and headers without framing headers or the blank line. */
const FRAMINGS: Record<string, Framing> = {
  'chunked, bad size': (head, body) =>
    join(head, 'Transfer-Encoding: chunked', CRLF, CRLF, 'zz', CRLF, body, CRLF, '0', CRLF, CRLF),
  'chunked, size larger than the data': (head, body) =>
    join(head, 'Transfer-Encoding: chunked', CRLF, CRLF, (body.length + 100).toString(16), CRLF, body),
  'chunked, no last chunk': (head, body) =>
    join(head, 'Transfer-Encoding: chunked', CRLF, CRLF, body.length.toString(16), CRLF, body, CRLF),
  'chunked, huge size': (head, body) =>
    join(head, 'Transfer-Encoding: chunked', CRLF, CRLF, 'ffffffffffffffff', CRLF, body, CRLF),
  'chunked, extension and trailer': (head, body) =>
    join(
      head,
      'Transfer-Encoding: chunked',
      CRLF,
      CRLF,
      body.length.toString(16),
      ';x="y"',
      CRLF,
      body,
      CRLF,
      '0',
      CRLF,
      'X-Trailer: 1',
      CRLF,
      CRLF,
    ),
  'chunked, many tiny chunks': (head, body) =>
    join(
      head,
      'Transfer-Encoding: chunked',
      CRLF,
      CRLF,
      ...[...body.subarray(0, 2000)].flatMap((b) => ['1', CRLF, Buffer.from([b]), CRLF]),
      '0',
      CRLF,
      CRLF,
    ),
  'Content-Length larger than the body': (head, body) =>
    join(head, `Content-Length: ${body.length + 50}`, CRLF, CRLF, body),
  'Content-Length smaller than the body': (head, body) =>
    join(head, `Content-Length: ${Math.max(0, body.length - 3)}`, CRLF, CRLF, body),
  'Content-Length and chunked': (head, body) =>
    join(
      head,
      `Content-Length: ${body.length}`,
      CRLF,
      'Transfer-Encoding: chunked',
      CRLF,
      CRLF,
      body.length.toString(16),
      CRLF,
      body,
      CRLF,
      '0',
      CRLF,
      CRLF,
    ),
  'two Content-Lengths': (head, body) =>
    join(head, `Content-Length: ${body.length}`, CRLF, `Content-Length: ${body.length + 1}`, CRLF, CRLF, body),
  'Content-Length not a number': (head, body) => join(head, 'Content-Length: -1', CRLF, CRLF, body),
  'Content-Length 1e3': (head, body) => join(head, 'Content-Length: 1e3', CRLF, CRLF, body),
  'Content-Length huge': (head, body) => join(head, 'Content-Length: 99999999999999999999', CRLF, CRLF, body),
  'Transfer-Encoding gzip': (head, body) =>
    join(
      head,
      'Transfer-Encoding: gzip, chunked',
      CRLF,
      CRLF,
      body.length.toString(16),
      CRLF,
      body,
      CRLF,
      '0',
      CRLF,
      CRLF,
    ),
  'bare LF line ends': (head, body) => join(head.replaceAll(CRLF, '\n'), `Content-Length: ${body.length}\n\n`, body),
  'header without a colon': (head, body) =>
    join(head, 'NoColonHere', CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  'space before the colon': (head, body) => join(head, `Content-Length : ${body.length}`, CRLF, CRLF, body),
  'folded header': (head, body) =>
    join(head, 'X-Folded: a', CRLF, ' b', CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  'header of 20 KB': (head, body) =>
    join(head, `X-Big: ${'b'.repeat(20_000)}`, CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  '2,000 headers': (head, body) =>
    join(
      head,
      ...Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${i}${CRLF}`),
      `Content-Length: ${body.length}`,
      CRLF,
      CRLF,
      body,
    ),
  'invalid UTF-8 in a header': (head, body) =>
    join(
      head,
      'X-Bytes: ',
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      CRLF,
      `Content-Length: ${body.length}`,
      CRLF,
      CRLF,
      body,
    ),
  'NUL in a header': (head, body) =>
    join(head, 'X-Nul: a\u0000b', CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  'truncated headers': (head) => join(head.slice(0, Math.max(1, Math.floor(head.length / 2)))),
  'Expect: 100-continue': (head, body) =>
    join(head, 'Expect: 100-continue', CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  'Expect: something else': (head, body) =>
    join(head, 'Expect: 42-frobnicate', CRLF, `Content-Length: ${body.length}`, CRLF, CRLF, body),
  'two requests pipelined, the second broken': (head, body) =>
    join(head, `Content-Length: ${body.length}`, CRLF, CRLF, body, 'GET / HTTP/1.1', CRLF, 'Host', CRLF, CRLF),
};

/** Request lines and whole requests that no well-formed request becomes. */
const RAW_REQUESTS: Record<string, (host: string) => Buffer> = {
  'HTTP/1.1 without Host': () => join('GET /healthz HTTP/1.1', CRLF, CRLF),
  'HTTP/1.0': () => join('GET /s/alpha HTTP/1.0', CRLF, CRLF),
  'HTTP/2.0 request line': (host) => join('GET / HTTP/2.0', CRLF, `Host: ${host}`, CRLF, CRLF),
  'HTTP/9.9 request line': (host) => join('GET / HTTP/9.9', CRLF, `Host: ${host}`, CRLF, CRLF),
  'absolute-form target': () => join('GET http://evil.test/s/alpha HTTP/1.1', CRLF, 'Host: evil.test', CRLF, CRLF),
  'asterisk target': (host) => join('OPTIONS * HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'two spaces in the request line': (host) => join('GET  /healthz  HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'raw bytes in the path': (host) =>
    join('GET /s/', Buffer.from([0xff, 0xc3, 0x28]), ' HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'UTF-8 in the path': (host) =>
    join('GET /s/', Buffer.from('ålpha💩'), ' HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'control character in the path': (host) => join('GET /s/a\u0001b HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'path of 100 KB': (host) => join(`GET /s/${'p'.repeat(100_000)} HTTP/1.1`, CRLF, `Host: ${host}`, CRLF, CRLF),
  'lowercase method': (host) => join('get /healthz HTTP/1.1', CRLF, `Host: ${host}`, CRLF, CRLF),
  'no request line': () => join(CRLF, CRLF),
  garbage: () => Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]),
  'empty connection': () => Buffer.alloc(0),
  'WebSocket upgrade to a page': (host) => upgrade('/s/alpha/live', host, 'dGhlIHNhbXBsZSBub25jZQ=='),
  'WebSocket upgrade to a protected page': (host) => upgrade('/s/alpha-vault/live', host, 'dGhlIHNhbXBsZSBub25jZQ=='),
  'WebSocket upgrade, bad key': (host) => upgrade('/s/alpha/live', host, '!'),
  'WebSocket upgrade elsewhere': (host) => upgrade('/api/v1/monitors', host, 'dGhlIHNhbXBsZSBub25jZQ=='),
  'WebSocket upgrade to an unknown page': (host) => upgrade('/s/nope/live', host, 'dGhlIHNhbXBsZSBub25jZQ=='),
  'WebSocket upgrade, odd path': (host) => upgrade('/s/%ff/live?x', host, 'dGhlIHNhbXBsZSBub25jZQ=='),
  'h2c upgrade': (host) =>
    join(
      'GET / HTTP/1.1',
      CRLF,
      `Host: ${host}`,
      CRLF,
      'Connection: Upgrade, HTTP2-Settings',
      CRLF,
      'Upgrade: h2c',
      CRLF,
      'HTTP2-Settings: AAMAAABkAAQAAP__',
      CRLF,
      CRLF,
    ),
  CONNECT: (host) => join(`CONNECT ${host} HTTP/1.1`, CRLF, `Host: ${host}`, CRLF, CRLF),
};

function upgrade(path: string, host: string, key: string): Buffer {
  return join(
    `GET ${path} HTTP/1.1`,
    CRLF,
    `Host: ${host}`,
    CRLF,
    'Upgrade: websocket',
    CRLF,
    'Connection: Upgrade',
    CRLF,
    `Sec-WebSocket-Key: ${key}`,
    CRLF,
    'Sec-WebSocket-Version: 13',
    CRLF,
    CRLF,
  );
}

/** A generated request framed badly, or one of the raw requests. */
export function framingArbitrary(server: FuzzServer, requests: fc.Arbitrary<HttpRequest>): fc.Arbitrary<FramedRequest> {
  const framed = fc.tuple(requests, fc.constantFrom(...Object.keys(FRAMINGS))).map(([request, name]): FramedRequest => {
    const body = request.body ? bodyBytes(request.body) : Buffer.from('{"a":1}');
    const headers = Object.entries({ host: server.host, ...request.headers })
      .filter(([name]) => name !== 'content-length' && name !== 'transfer-encoding')
      .map(([name, value]) => `${name}: ${value}${CRLF}`)
      .join('');
    const head = `${request.method} ${request.target} HTTP/1.1${CRLF}${headers}`;
    const bytes = (FRAMINGS[name] as Framing)(head, body, request, server.host);
    return {
      kind: 'raw',
      bytes,
      mutation: `${name}: ${request.method} ${request.target.slice(0, 120)}`,
      truncated: TRUNCATED.has(name),
    };
  });
  const raw = fc.constantFrom(...Object.keys(RAW_REQUESTS)).map(
    (name): FramedRequest => ({
      kind: 'raw',
      bytes: (RAW_REQUESTS[name] as (host: string) => Buffer)(server.host),
      mutation: name,
      truncated: TRUNCATED.has(name),
    }),
  );
  return fc.oneof({ weight: 3, arbitrary: framed }, { weight: 1, arbitrary: raw });
}
