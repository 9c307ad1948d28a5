// Custom-domain takeover is closed at the claim: a real server, two organizations. The service's own host, localhost and
// IP addresses are refused as a custom domain, through the API (400) as in warden.yaml (before serving anything), and
// another organization's domain, verified or not, answers 409 without naming its page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden } from '../../src/main.js';
import { dialects } from '../store-dialects.js';
import { BASE_HOST, domainsServer } from './hardening-domains-harness.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`custom domains cannot be taken over (${dialect.name})`, () => {
    const d = domainsServer(dialect);
    const { api, keys } = d;

    it('refuses the service’s own host, localhost and IP addresses as a custom domain (400 naming customDomain)', async () => {
      for (const customDomain of [
        BASE_HOST,
        'Warden.Example.com.',
        'localhost',
        'status.localhost',
        '127.0.0.1',
        '10.0.0.1',
        '[::1]',
        '::1',
      ]) {
        const res = await api(keys.globex, 'POST', '/api/v1/pages', { slug: 'grab', title: 'Grab', customDomain });
        expect(res.status, customDomain).toBe(400);
        expect(res.type).toBe('application/problem+json');
        expect(res.body.errors, customDomain).toEqual([{ path: 'body.customDomain', message: expect.any(String) }]);
      }
      expect((await api(keys.globex, 'POST', '/api/v1/pages', { slug: 'grab', title: 'Grab' })).status).toBe(201);
      const patched = await api(keys.globex, 'PATCH', '/api/v1/pages/grab', { customDomain: BASE_HOST });
      expect(patched.status).toBe(400);
      expect(patched.body.errors).toEqual([
        { path: 'body.customDomain', message: expect.stringContaining('own host') },
      ]);
    });

    it('refuses another organization’s domain (409), naming the field but not the other page', async () => {
      const res = await api(keys.globex, 'PATCH', '/api/v1/pages/grab', { customDomain: 'STATUS.acme.test.' });
      expect(res.status).toBe(409);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.detail).toContain('customDomain');
      expect(res.body.detail).not.toContain('"acme"');
      // An API claim, verified or not, holds the domain just the same.
      expect(
        (
          await api(keys.acme, 'POST', '/api/v1/pages', {
            slug: 'acme-api',
            title: 'A',
            customDomain: 'held.acme.test',
          })
        ).status,
      ).toBe(201);
      expect((await api(keys.globex, 'PATCH', '/api/v1/pages/grab', { customDomain: 'held.acme.test' })).status).toBe(
        409,
      );
    });

    it('refuses the same names in warden.yaml, before serving anything', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'warden-domains-'));
      try {
        for (const [customDomain, message] of [
          [BASE_HOST, 'pages[0].customDomain: warden.example.com is this service’s own host'],
          ['localhost', 'pages[0].customDomain: localhost cannot be a custom domain'],
          ['192.168.1.1', 'pages[0].customDomain: an IP address cannot be a custom domain'],
        ] as const) {
          const file = join(dir, 'warden.yaml');
          writeFileSync(
            file,
            `organization: { key: initech, name: Initech }\npages: [{ slug: initech, title: Initech, customDomain: "${customDomain}" }]\n`,
          );
          const env = {
            ...d.opened.env,
            PORT: '0',
            HOST: '127.0.0.1',
            WARDEN_BASE_URL: `https://${BASE_HOST}`,
            WARDEN_CONFIG: file,
          };
          const failed = await startWarden({ settings: readSettings(env), logger: createLogger('silent') }).then(
            async (started) => {
              await started.close();
              return 'started';
            },
            (error: Error) => error.message + JSON.stringify((error as { issues?: unknown }).issues ?? ''),
          );
          expect(failed.replace(/'/g, '’')).toContain(message.split(': ')[1]);
          expect(failed).toContain('customDomain');
        }
        expect(await d.opened.store.organizations.findByKey('initech')).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
