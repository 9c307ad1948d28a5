// Custom-domain takeover is closed: a real server, two organizations, a fake DNS server holding (or not) the TXT records.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { type DnsZone, type FakeDnsServer, startDnsFake } from '../fakes/dns-server.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const BASE_HOST = 'warden.example.com';
const ACME = `
organization: { key: acme, name: Acme }
pages:
  - { slug: acme, title: Acme Network, customDomain: status.acme.test }
`;
const GLOBEX = 'organization: { key: globex, name: Globex }';
/** The daily re-check, made fast: a verified domain whose last lookup is this old is looked up again. */
const RECHECK_MS = 300;
const SOON = { timeout: 5_000, interval: 25 };

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/** A request with the Host header given (fetch would not send another host than the URL's). */
function hostRequest(
  base: string,
  path: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`custom domains cannot be taken over (${dialect.name})`, () => {
    let opened: OpenedStore;
    let warden: Warden;
    let dns: FakeDnsServer;
    const zone: DnsZone = {};
    const keys = { acme: '', globex: '' };
    const logs: string[] = [];

    beforeAll(async () => {
      opened = await dialect.open();
      const acme = await seed(opened.store, ACME);
      const globex = await seed(opened.store, GLOBEX);
      const ctx = testContext(opened.store);
      keys.acme = (
        await createApiKey({ ...ctx, organizationId: acme.report.organization.id }, { name: 'w', scope: 'write' })
      ).secret;
      keys.globex = (
        await createApiKey({ ...ctx, organizationId: globex.report.organization.id }, { name: 'w', scope: 'write' })
      ).secret;
      dns = await startDnsFake(zone);
      const env = {
        ...opened.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WARDEN_BASE_URL: `https://${BASE_HOST}`,
      };
      warden = await startWarden({
        settings: readSettings(env),
        logger: createLogger('warn', { write: (line: string) => void logs.push(line) }),
        domains: { dnsServers: [dns.address], recheckEveryMs: RECHECK_MS },
      });
    });

    afterAll(async () => {
      await warden?.close();
      await dns?.close();
      await opened?.cleanup();
    });

    const api = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${warden.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
    };
    const onHost = (host: string, path: string) => hostRequest(warden.url, path, host);
    const mcpPages = async (host: string): Promise<string[]> => {
      const res = await hostRequest(warden.url, '/mcp', host, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_status_pages', arguments: {} },
        }),
      });
      const json = res.body.trim().startsWith('{') ? res.body : (/^data: (.*)$/m.exec(res.body)?.[1] ?? '{}');
      const result = (JSON.parse(json) as { result?: { structuredContent?: { pages?: { slug: string }[] } } }).result;
      expect(result?.structuredContent?.pages, res.body).toBeDefined();
      return (result?.structuredContent?.pages ?? []).map((p) => p.slug).sort();
    };

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

    it('serves a warden.yaml domain at once, as the operator’s', async () => {
      const page = await onHost('status.acme.test', '/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Acme Network');
      const view = await api(keys.acme, 'GET', '/api/v1/pages/acme');
      expect(view.body.customDomainVerification).toMatchObject({
        state: 'verified',
        token: null,
        record: '_warden.status.acme.test',
      });
    });

    it('serves nothing on an unverified API domain, and the main address keeps its own /, llms.txt and MCP', async () => {
      const created = await api(keys.globex, 'PATCH', '/api/v1/pages/grab', {
        title: 'Grabbed',
        customDomain: 'Status.Grab.example.',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body).toMatchObject({
        customDomain: 'status.grab.example',
        customDomainVerification: { state: 'unverified', record: '_warden.status.grab.example' },
      });
      expect(created.body.customDomainVerification.token).toMatch(/^wdv_[A-Za-z0-9_-]{32}$/);
      // The page index reloads on the write's event, a query after the answer.
      await expect.poll(async () => (await onHost(BASE_HOST, '/llms.txt')).body, SOON).toContain('Grabbed');
      const mainLlms = await onHost(BASE_HOST, '/llms.txt');
      expect(mainLlms.body).toContain('Acme Network');
      const mainMcp = await mcpPages(BASE_HOST);
      expect(mainMcp).toEqual(['acme', 'acme-api', 'grab']);
      for (const host of [
        'status.grab.example',
        'STATUS.GRAB.EXAMPLE',
        'status.grab.example:8443',
        'status.grab.example.',
      ]) {
        const root = await onHost(host, '/');
        expect(root.status, host).toBe(404);
        expect(root.body).not.toContain('Grabbed');
        expect((await onHost(host, '/llms.txt')).body).toBe(mainLlms.body);
        expect((await onHost(host, '/llms-full.txt')).body).toContain('Acme Network');
        expect(await mcpPages(host)).toEqual(mainMcp);
      }
      // A proxy's on-demand TLS asks first: no certificate for a name Warden would not serve.
      expect((await onHost(BASE_HOST, '/domain-check?domain=status.grab.example')).status).toBe(404);
      expect((await onHost(BASE_HOST, `/domain-check?domain=${BASE_HOST}`)).status).toBe(404);
      const missing = await onHost(BASE_HOST, '/domain-check');
      expect(missing.status).toBe(400);
      expect(missing.body).toContain('query.domain');
      // The main address never shows only one page, whatever it is called: it links to the dashboard and every public page.
      for (const host of [BASE_HOST, `${BASE_HOST}:443`, '127.0.0.1', 'localhost']) {
        const home = await onHost(host, '/');
        expect(home.status, host).toBe(200);
        expect(home.body).toContain('href="/app/"');
        for (const slug of ['acme', 'acme-api', 'grab']) expect(home.body).toContain(`/s/${slug}`);
        expect((await onHost(host, '/llms.txt')).body, host).toBe(mainLlms.body);
      }
    });

    it('verifies with the right TXT record only, then serves the page on its domain', async () => {
      const token = (await api(keys.globex, 'GET', '/api/v1/pages/grab')).body.customDomainVerification.token as string;
      const none = await api(keys.globex, 'POST', '/api/v1/pages/grab/domain/verify');
      expect(none.status).toBe(409);
      expect(none.type).toBe('application/problem+json');
      expect(none.body).toMatchObject({ type: 'https://warden.dev/problems/domain-not-verified' });
      expect(none.body.detail).toContain('_warden.status.grab.example has no TXT record');
      expect(none.body.detail).toContain(token);
      zone['_warden.status.grab.example'] = { TXT: [{ data: 'wdv_somebody-elses-token' }] };
      const wrong = await api(keys.globex, 'POST', '/api/v1/pages/grab/domain/verify');
      expect(wrong.status).toBe(409);
      expect(wrong.body.detail).toContain('"wdv_somebody-elses-token"');
      expect((await onHost('status.grab.example', '/')).status).toBe(404);
      // Another organization cannot verify it for them, nor read the page.
      expect((await api(keys.acme, 'POST', '/api/v1/pages/grab/domain/verify')).status).toBe(404);

      zone['_warden.status.grab.example'] = {
        TXT: [{ data: 'v=other' }, { data: [token.slice(0, 10), token.slice(10)] }],
      };
      const ok = await api(keys.globex, 'POST', '/api/v1/pages/grab/domain/verify');
      expect(ok.status).toBe(200);
      expect(ok.body.customDomainVerification).toMatchObject({
        state: 'verified',
        token,
        verifiedAt: expect.any(Number),
        checkedAt: expect.any(Number),
      });
      await expect.poll(async () => (await onHost('status.grab.example', '/')).status, SOON).toBe(200);
      expect((await onHost('status.grab.example', '/')).body).toContain('Grabbed');
      const asked = await onHost(BASE_HOST, '/domain-check?domain=STATUS.Grab.example.');
      expect(asked.status).toBe(200);
      expect(JSON.parse(asked.body)).toEqual({ domain: 'status.grab.example', verified: true });
      const scoped = await onHost('status.grab.example', '/llms.txt');
      expect(scoped.body).toContain('Grabbed');
      expect(scoped.body).not.toContain('Acme Network');
      expect(await mcpPages('status.grab.example')).toEqual(['grab']);
      // The main address is unchanged.
      expect(await mcpPages(BASE_HOST)).toEqual(['acme', 'acme-api', 'grab']);
      expect((await onHost(BASE_HOST, '/')).body).toContain('href="/app/"');
    });

    it('stops serving once the daily re-check finds the record gone, and logs it', async () => {
      delete zone['_warden.status.grab.example'];
      await expect.poll(async () => (await onHost('status.grab.example', '/')).status, SOON).toBe(404);
      expect((await api(keys.globex, 'GET', '/api/v1/pages/grab')).body.customDomainVerification.state).toBe(
        'unverified',
      );
      expect(logs.join('')).toContain('custom domain lost its verification record');
      // The config domain was never looked up, and still serves.
      expect(dns.queries.some((q) => q.name === '_warden.status.acme.test')).toBe(false);
      expect((await onHost('status.acme.test', '/')).status).toBe(200);
      expect((await onHost(BASE_HOST, '/domain-check?domain=status.grab.example')).status).toBe(404);
      expect((await onHost(BASE_HOST, '/domain-check?domain=status.acme.test')).status).toBe(200);
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
            ...opened.env,
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
        expect(await opened.store.organizations.findByKey('initech')).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('starts over with a new token when the domain changes', async () => {
      const before = (await api(keys.globex, 'GET', '/api/v1/pages/grab')).body.customDomainVerification
        .token as string;
      zone['_warden.status.grab.example'] = { TXT: [{ data: before }] };
      expect((await api(keys.globex, 'POST', '/api/v1/pages/grab/domain/verify')).status).toBe(200);
      const same = await api(keys.globex, 'PATCH', '/api/v1/pages/grab', {
        title: 'Still grabbed',
        customDomain: 'status.grab.example',
      });
      expect(same.body.customDomainVerification).toMatchObject({ state: 'verified', token: before });
      const moved = await api(keys.globex, 'PATCH', '/api/v1/pages/grab', { customDomain: 'new.grab.example' });
      expect(moved.body.customDomainVerification).toMatchObject({ state: 'unverified', verifiedAt: null });
      expect(moved.body.customDomainVerification.token).not.toBe(before);
      await expect.poll(async () => (await onHost('status.grab.example', '/')).status, SOON).toBe(404);
      expect((await onHost('new.grab.example', '/')).status).toBe(404);
    });
  });
