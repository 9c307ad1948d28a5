// How a WebSocket upgrade is refused: a plain HTTP answer with a problem+json body, written on the raw socket, and what
// is wrong with a handshake that `ws` would refuse with a bare 400.
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problem } from './problem.js';

/** Answers an upgrade request with a plain HTTP error (problem+json) and closes the socket. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  code: string,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(problem(status, code, title, detail));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * What is wrong with an upgrade request that `ws` would refuse with a bare 400 (RFC 6455 §4.2.1), or undefined: checked
 * first, so every refusal is problem+json.
 */
export function handshakeProblem(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return 'A WebSocket handshake is a GET request.';
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return 'Upgrade must be websocket.';
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key.trim()))
    return 'Sec-WebSocket-Key must be 16 random bytes in base64.';
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') return 'Sec-WebSocket-Version must be 13.';
  return undefined;
}

/** Refuses a handshake `ws` would refuse (400, problem+json): true when it did. */
export function refuseBadHandshake(req: IncomingMessage, socket: Duplex): boolean {
  const malformed = handshakeProblem(req);
  if (malformed)
    refuseUpgrade(socket, 400, 'bad-handshake', 'Bad WebSocket handshake', malformed, {
      'Sec-WebSocket-Version': '13',
    });
  return malformed !== undefined;
}

/** 503 to an upgrade that arrives (or finishes its checks) once the server is shutting down. */
export function refuseShuttingDown(socket: Duplex): void {
  refuseUpgrade(socket, 503, 'unavailable', 'Shutting down', 'The server is shutting down; reconnect shortly.');
}
