// Fake HTTP services on node:http for probe tests: the server itself (http or https) and a website with misbehaving routes.

import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serverCertificate } from './certificates.js';

export interface FakeServer {
  /** Origin such as http://127.0.0.1:41234, without a trailing slash. */
  url: string;
  port: number;
  /** Every request seen, newest last. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Certificate {
  key: string;
  cert: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Serves `handler` on 127.0.0.1 (or another loopback address) on a free port, over https when a certificate is given. */
export async function startHttpFake(handler: Handler, tls?: Certificate, host = '127.0.0.1'): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body });
      handler(req, res, body);
    });
  };
  const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for localhost and 127.0.0.1 valid for `days` more days (made in-process, no openssl command). */
export function createSelfSignedCertificate(days = 30): Promise<Certificate> {
  return serverCertificate({ expiresInDays: days });
}

/** Sends bytes until the client goes away: the byte cap must cut it off. */
export function sendEndlessBody(res: ServerResponse, contentType = 'text/plain'): void {
  res.writeHead(200, { 'content-type': contentType });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let open = true;
  res.on('close', () => {
    open = false;
  });
  const pump = () => {
    while (open && res.write(chunk)) {
      // keep writing while the socket accepts more
    }
  };
  res.on('drain', pump);
  pump();
}

/** Sends one byte every `everyMs` and never finishes: only the timeout can end it. */
export function sendTrickle(res: ServerResponse, everyMs = 50): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => res.write('.'), everyMs);
  res.on('close', () => clearInterval(timer));
}

/**
 * A website with one route per behaviour the http probe must handle:
 * /ok, /status/{code}, /json, /echo, /redirect/{n} (a chain of n redirects ending at /ok), /see-other (303 to /echo),
 * /moved-to/{port} (redirect to another origin), /endless, /trickle, /hang (never answers).
 */
export function startWebsiteFake(tls?: Certificate, host?: string): Promise<FakeServer> {
  return startHttpFake(
    (req, res, body) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const [, route = '', arg = ''] = url.pathname.split('/');
      switch (route) {
        case 'ok':
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<html><body>Hello from the fake website</body></html>');
          return;
        case 'status':
          res.writeHead(Number(arg) || 500, { 'content-type': 'text/plain' }).end(`status ${arg}`);
          return;
        case 'json':
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(
              JSON.stringify({ status: 'healthy', data: { items: [{ state: 'up', count: 3 }], ok: true, none: null } }),
            );
          return;
        case 'echo':
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ method: req.method, headers: req.headers, body }));
          return;
        case 'redirect': {
          const left = Number(arg);
          res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/ok' }).end();
          return;
        }
        case 'see-other':
          res.writeHead(303, { location: '/echo' }).end();
          return;
        case 'moved-to':
          res.writeHead(307, { location: `http://127.0.0.1:${arg}/echo` }).end();
          return;
        case 'endless':
          sendEndlessBody(res);
          return;
        case 'trickle':
          sendTrickle(res);
          return;
        case 'hang':
          return;
        default:
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    },
    tls,
    host,
  );
}
