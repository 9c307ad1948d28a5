// First run on the server's own machine (WARDEN_LOCAL_SETUP, docs/accounts.md#first-run): a real server tells a setup
// screen opened by a loopback address where to get the code, its listener hands one over to that screen's origin only,
// the code creates the owner, and then the offer is gone. A browser that addressed the server by another name (through
// a proxy, from another machine) is told nothing, and WARDEN_LOCAL_SETUP=0 turns it off.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const sqlite = dialects.find((d) => d.name === 'sqlite')!;

/** GET with the Host a browser would send for the address it was given: the body and the headers. */
function fetchAs(url: string, host: string): Promise<{ body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
const getAs = async (url: string, host: string) =>
  JSON.parse((await fetchAs(url, host)).body) as Record<string, unknown>;

describe('the setup code for a browser on the server’s machine', () => {
  let opened: OpenedStore | undefined;
  let warden: Warden | undefined;
  afterEach(async () => {
    await warden?.close();
    warden = undefined;
    await opened?.cleanup();
    opened = undefined;
  });

  async function start(env: Record<string, string> = {}): Promise<{ base: string; port: number }> {
    opened = await sqlite.open({ migrate: false });
    const settings = readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
    warden = await startWarden({ settings, logger: createLogger('silent') });
    return { base: `http://127.0.0.1:${warden.port}`, port: warden.port };
  }

  it('is offered to the setup screen opened by localhost, handed to its origin, and creates the owner', async () => {
    const { base, port } = await start();
    const config = await getAs(`${base}/api/v1/auth/config`, `localhost:${port}`);
    expect(config).toMatchObject({ setupRequired: true, localSetup: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/) });
    // Through a proxy or from elsewhere the browser used another name: no offer (its 127.0.0.1 is not ours).
    expect(await getAs(`${base}/api/v1/auth/config`, `status.example.com`)).toMatchObject({ localSetup: null });

    // The dashboard's policy lets its page on this machine ask that listener, and nobody else's.
    const listener = new URL(config.localSetup as string).origin;
    expect((await fetchAs(`${base}/app/setup`, `localhost:${port}`)).headers['content-security-policy']).toContain(
      `connect-src 'self' ${listener}`,
    );
    expect((await fetchAs(`${base}/app/setup`, 'status.example.com')).headers['content-security-policy']).toContain(
      "connect-src 'self';",
    );

    const dashboard = `http://localhost:${port}`;
    const handed = await fetch(config.localSetup as string, {
      method: 'POST',
      headers: { origin: dashboard, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(handed.status).toBe(200);
    expect(handed.headers.get('access-control-allow-origin')).toBe(dashboard);
    const { code } = (await handed.json()) as { code: string };
    expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    // Another site's page cannot have one.
    const foreign = await fetch(config.localSetup as string, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);

    const created = await fetch(`${base}/api/v1/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        code,
        email: 'owner@example.com',
        name: 'Owner',
        password: 'correct horse battery staple',
      }),
    });
    expect(created.status).toBe(201);
    expect(await getAs(`${base}/api/v1/auth/config`, `localhost:${port}`)).toMatchObject({
      setupRequired: false,
      localSetup: null,
    });
    const after = await fetch(config.localSetup as string, {
      method: 'POST',
      headers: { origin: dashboard, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(after.status).toBe(404);
  });

  it('is not offered with WARDEN_LOCAL_SETUP=0', async () => {
    const { base, port } = await start({ WARDEN_LOCAL_SETUP: '0' });
    expect(await getAs(`${base}/api/v1/auth/config`, `localhost:${port}`)).toMatchObject({
      setupRequired: true,
      localSetup: null,
    });
  });
});
