import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { type LocalSetupListener, listenForLocalSetup } from './local-setup.js';

const MAIN_PORT = 8080;
const DASHBOARD = `http://localhost:${MAIN_PORT}`;

/** A raw request, so Host and Origin are exactly what a test says (fetch would set its own Host). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the local setup listener', () => {
  let listener: LocalSetupListener | undefined;
  let issued = 0;
  let accountExists = false;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
    issued = 0;
    accountExists = false;
  });
  const start = async () => {
    listener = await listenForLocalSetup({
      mainPort: MAIN_PORT,
      issue: async () => {
        if (accountExists) return null;
        issued++;
        return { code: `ABCD-EFG${issued + 1}`, expiresAt: Date.UTC(2026, 10, 29, 12) };
      },
      logger: createLogger('silent'),
    });
    return listener;
  };
  const json = { 'content-type': 'application/json' };

  it('listens on 127.0.0.1 only, at /setup-code', async () => {
    const { url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/setup-code$/);
  });

  it('hands a new code to the setup screen opened on this machine, after the browser’s preflight', async () => {
    const { url } = await start();
    const preflight = await send(url, {
      method: 'OPTIONS',
      headers: { origin: DASHBOARD, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
    for (const origin of [DASHBOARD, `http://127.0.0.1:${MAIN_PORT}`, `http://[::1]:${MAIN_PORT}`]) {
      const answer = await send(url, { headers: { origin, ...json }, body: '{}' });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(answer.body)).toEqual({
        code: expect.stringMatching(/^ABCD-EFG\d$/),
        expiresAt: expect.any(String),
      });
    }
    expect(issued).toBe(3);
  });

  it('refuses any other page: no origin, another site, another port of this machine', async () => {
    const { url } = await start();
    for (const origin of [undefined, 'https://evil.example', `http://localhost:${MAIN_PORT + 1}`, 'null']) {
      const answer = await send(url, { headers: { ...(origin ? { origin } : {}), ...json }, body: '{}' });
      expect(answer.status, String(origin)).toBe(403);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(issued).toBe(0);
  });

  it('refuses another name for this address (DNS rebinding) and a body a form could send without a preflight', async () => {
    const { url } = await start();
    const port = new URL(url).port;
    const rebound = await send(url, { headers: { host: `attacker.example:${port}`, origin: DASHBOARD, ...json } });
    expect(rebound.status).toBe(421);
    const form = await send(url, {
      headers: { origin: DASHBOARD, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    expect((await send(url, { method: 'GET', headers: { origin: DASHBOARD } })).status).toBe(405);
    expect((await send(url.replace('/setup-code', '/other'), { headers: { origin: DASHBOARD } })).status).toBe(404);
    expect(issued).toBe(0);
  });

  it('answers 404 once an account exists', async () => {
    const { url } = await start();
    accountExists = true;
    const answer = await send(url, { headers: { origin: DASHBOARD, ...json }, body: '{}' });
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('sign in');
  });
});
