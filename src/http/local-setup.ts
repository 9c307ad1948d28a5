// The setup code for a browser on the server's own machine (WARDEN_LOCAL_SETUP, docs/accounts.md#first-run): while no
// account exists, a listener of its own on 127.0.0.1 (a port the system picks) hands a new setup code to the setup
// screen when that screen was loaded from this server by a loopback address. Why another port and not a route: a
// reverse proxy forwards to the main port only, so a request through it — whatever Host or Origin it forges — never
// reaches this one; a browser elsewhere reaches its own machine's 127.0.0.1, not ours. A web page the operator visits
// cannot read the answer (the POST needs a preflight, allowed for the dashboard's own loopback origins only) nor
// address this listener by another name (Host must be 127.0.0.1:port, against DNS rebinding).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import { PROBLEM_CONTENT_TYPE, problem, problemBody } from './problem.js';

export const LOCAL_SETUP_PATH = '/setup-code';

export interface LocalSetupListener {
  /** Where the setup screen asks: http://127.0.0.1:port/setup-code. */
  url: string;
  close(): Promise<void>;
}

export interface LocalSetupOptions {
  /** The main port, whose loopback origins (localhost, 127.0.0.1, [::1]) may read a code. */
  mainPort: number;
  /** A new setup code (the earlier one stops working), or null once an account exists. */
  issue: () => Promise<{ code: string; expiresAt: number } | null>;
  logger: Logger;
}

const NO_STORE = { 'cache-control': 'no-store' };

/** Whether a request's Host is a loopback name: only a browser that used one can reach the local setup listener. */
export function isLoopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]';
}

/** The dashboard's own origins on this machine: the only pages allowed to read a code. */
export function loopbackOrigins(mainPort: number): Set<string> {
  return new Set(['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${mainPort}`));
}

export async function listenForLocalSetup(options: LocalSetupOptions): Promise<LocalSetupListener> {
  const origins = loopbackOrigins(options.mainPort);
  let port = 0;
  const server: Server = createServer((req, res) => answer(req, res));

  function refuse(res: ServerResponse, status: 403 | 404 | 405 | 415 | 421, detail: string, extra = {}): undefined {
    const titles = {
      403: 'Forbidden',
      404: 'Not found',
      405: 'Method not allowed',
      415: 'Unsupported media type',
      421: 'Misdirected request',
    };
    const body = problem(status, titles[status].toLowerCase().replaceAll(' ', '-'), titles[status], detail);
    res
      .writeHead(status, { 'content-type': PROBLEM_CONTENT_TYPE, ...NO_STORE, ...extra })
      .end(problemBody(body, LOCAL_SETUP_PATH));
    return undefined;
  }

  function answer(req: IncomingMessage, res: ServerResponse): undefined {
    // Against DNS rebinding: a name that resolves here is still not this listener's name.
    if (req.headers.host !== `127.0.0.1:${port}`) return refuse(res, 421, 'Address this listener as 127.0.0.1.');
    if ((req.url ?? '/').split('?')[0] !== LOCAL_SETUP_PATH) return refuse(res, 404, `Only ${LOCAL_SETUP_PATH}.`);
    const origin = req.headers.origin;
    if (origin === undefined || !origins.has(origin))
      return refuse(res, 403, 'Only the setup screen opened on this machine may ask for a code here.');
    const cors = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'content-type',
          'access-control-max-age': '60',
        })
        .end();
      return;
    }
    if (req.method !== 'POST') return refuse(res, 405, 'Use POST.', { allow: 'POST, OPTIONS', ...cors });
    // A JSON body cannot be sent across origins without the preflight above.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return refuse(res, 415, 'Send content-type: application/json.', cors);
    req.resume();
    options.issue().then(
      (setup) => {
        if (!setup) return refuse(res, 404, 'An account exists: sign in instead.', cors);
        res
          .writeHead(200, { 'content-type': 'application/json', ...NO_STORE, ...cors })
          .end(JSON.stringify({ code: setup.code, expiresAt: new Date(setup.expiresAt).toISOString() }));
        options.logger.info('the setup code was handed to the setup screen opened on this machine');
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'making a setup code for this machine failed');
        res
          .writeHead(500, { 'content-type': PROBLEM_CONTENT_TYPE, ...cors })
          .end(problemBody(problem(500, 'internal', 'Internal error', 'Something went wrong on our side.'), '/'));
      },
    );
  }

  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${LOCAL_SETUP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
