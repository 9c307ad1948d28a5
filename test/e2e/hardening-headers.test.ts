// HTML pages against a real server: no framing (but the embed), no referrer beyond the origin, no sniffing, the same
// from the pre-router and the app; and a protected page's password form that names nothing of the page.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { seed } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: beat, name: Beat, type: heartbeat, enabled: false }
pages:
  - { slug: acme, title: Acme, components: [{ name: Beat, monitor: beat }] }
  - slug: vault
    title: Quarterly Merger Plans
    description: Project Nightingale
    customDomain: status.hidden.test
    password: correct-horse-battery
    components: [{ name: Beat, monitor: beat }]
`;

const NO_FRAMING = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
};

/** A GET with the Host header given (fetch would send the URL's). */
function get(url: string, host: string | undefined): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers }));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function expectUnframeable(res: Response, what: string): void {
  for (const [name, value] of Object.entries(NO_FRAMING)) expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("default-src 'none'");
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`security headers of HTML pages (${dialect.name})`, () => {
    let opened: OpenedStore;
    let fast: Warden;
    let slow: Warden;

    beforeAll(async () => {
      opened = await dialect.open();
      await seed(opened.store, CONFIG);
      const env = { ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
      fast = await startWarden({ settings: readSettings(env), logger: createLogger('silent') });
      slow = await startWarden({
        settings: readSettings({ ...env, WARDEN_FAST_PATH: '0' }),
        logger: createLogger('silent'),
      });
    });
    afterAll(async () => {
      await fast?.close();
      await slow?.close();
      await opened?.cleanup();
    });

    it('sends frame-ancestors none, X-Frame-Options, Referrer-Policy and nosniff on the page, the same from the pre-router and the app', async () => {
      const answers: Response[] = [];
      for (const warden of [fast, slow])
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${warden.url}/s/acme`);
          expect(res.status).toBe(200);
          expectUnframeable(res, `${warden === fast ? 'pre-router' : 'app'} #${i}`);
          answers.push(res);
        }
      expect(new Set(answers.map((r) => r.headers.get('content-security-policy'))).size).toBe(1);
    });

    it('lets any site frame the embed, and never sends X-Frame-Options with it', async () => {
      for (const warden of [fast, slow]) {
        const res = await fetch(`${warden.url}/s/acme/embed`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
        expect(res.headers.get('x-frame-options')).toBeNull();
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('sends the same headers on the 404 page and the password form', async () => {
      const missing = await fetch(`${fast.url}/s/no-such-page`);
      expect(missing.status).toBe(404);
      expectUnframeable(missing, '404');
      const form = await fetch(`${fast.url}/s/vault`);
      expect(form.status).toBe(401);
      expectUnframeable(form, 'password form');
      const wrong = await fetch(`${fast.url}/s/vault/login`, {
        method: 'POST',
        body: new URLSearchParams({ password: 'not-the-password' }),
      });
      expect(wrong.status).toBe(401);
      expectUnframeable(wrong, 'password form after a wrong password');
    });

    it('names nothing of a protected page in its password form: no title, description or slug beyond the URL', async () => {
      for (const [url, host] of [
        [`${fast.url}/s/vault`, undefined],
        [`${fast.url}/`, 'status.hidden.test'],
      ] as const) {
        const res = await get(url, host);
        expect(res.status).toBe(401);
        const body = await res.text();
        expect(body).toContain('type="password"');
        for (const secret of ['Quarterly', 'Merger', 'Nightingale']) expect(body).not.toContain(secret);
        // The slug appears only in the form's action, on the page's own path; on its domain, not at all.
        expect(body.replaceAll('action="/s/vault/login"', '')).not.toContain('vault');
        expect(res.headers.get('www-authenticate')).not.toContain('vault');
      }
    });
  });
