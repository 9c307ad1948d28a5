// Requests Node's parser refuses, without Host, or with a target no URL can hold: each answered as problem+json, on a real socket.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerUnreadableRequests, requiringHost, unreadableTargetResponse } from './client-error.js';

let server: Server;
let port: number;

beforeAll(async () => {
  const app = getRequestListener(() => new Response('ok'), { errorHandler: unreadableTargetResponse });
  server = createServer({ requireHostHeader: false }, requiringHost(app));
  answerUnreadableRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw bytes and reads until the server closes: status, content type and the parsed body. */
function exchange(
  bytes: string,
): Promise<{ status: number; type: string | undefined; body: Record<string, unknown> | string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', rest = ''] = text.split('\r\n\r\n');
      const type = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1];
      resolve({
        status: Number(head.slice(9, 12)),
        type,
        body: type?.includes('json') && rest !== '' ? JSON.parse(rest) : rest,
      });
    });
  });
}

describe('requests the server cannot read', () => {
  it.each([
    ['bare LF line ends', 'GET / HTTP/1.1\nHost: a\n\n', 400, 'malformed'],
    ['an unknown method', 'X-WARDEN / HTTP/1.1\r\nHost: a\r\n\r\n', 400, 'malformed'],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n', 400, 'malformed'],
    [
      'Content-Length and chunked together',
      'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      400,
      'malformed',
    ],
    ['headers of 20 KB', `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431, 'headers-too-large'],
    [
      'an expectation other than 100-continue',
      'GET / HTTP/1.1\r\nHost: a\r\nExpect: 42-frobnicate\r\nConnection: close\r\n\r\n',
      417,
      'expectation-failed',
    ],
    ['HTTP/1.1 without Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'malformed'],
    ['an empty Host', 'GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n', 400, 'malformed'],
    ['the asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 400, 'malformed'],
    ['CONNECT', 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n', 405, 'method-not-allowed'],
  ])('answers %s as problem+json', async (_what, bytes, status, type) => {
    const answer = await exchange(bytes);
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ type: `https://warden.dev/problems/${type}`, status });
  });

  it('answers HEAD with headers only, and a connection once however many errors its bytes hold', async () => {
    const head = await exchange(`HEAD / HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(head).toMatchObject({ status: 431, type: 'application/problem+json', body: '' });
    const twice = await exchange('GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\nGET / HTTP/1.1\r\nAlso Broken\r\n\r\n');
    expect(twice.status).toBe(400);
    expect(typeof twice.body === 'object' && twice.body.status).toBe(400);
  });

  it('serves HTTP/1.0 without Host (it has none to send) and a well-formed request as before', async () => {
    expect(await exchange('GET / HTTP/1.0\r\n\r\n')).toMatchObject({ status: 400 });
    expect(await exchange('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).toMatchObject({
      status: 200,
      body: 'ok',
    });
  });
});
