// Custom-domain takeover is closed at serving: a real server, two organizations, a fake DNS server holding (or not) the
// TXT records. warden.yaml's domains serve at once; an API domain serves nothing until its TXT record verifies it, stops
// once the daily re-check finds it gone, and starts over with a new token when it changes; the main address keeps its
// own /, llms.txt and MCP throughout.
import { beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../store-dialects.js';
import { BASE_HOST, domainsServer, SOON } from './hardening-domains-harness.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`custom domains cannot be taken over (${dialect.name})`, () => {
    const d = domainsServer(dialect);
    const { api, keys, logs, mcpPages, onHost, zone } = d;

    // The pages the claims left (hardening-domains-claims.test.ts): globex's without a domain, acme's holding one.
    beforeAll(async () => {
      expect((await api(keys.globex, 'POST', '/api/v1/pages', { slug: 'grab', title: 'Grab' })).status).toBe(201);
      const held = { slug: 'acme-api', title: 'A', customDomain: 'held.acme.test' };
      expect((await api(keys.acme, 'POST', '/api/v1/pages', held)).status).toBe(201);
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
      expect(d.dns.queries.some((q) => q.name === '_warden.status.acme.test')).toBe(false);
      expect((await onHost('status.acme.test', '/')).status).toBe(200);
      expect((await onHost(BASE_HOST, '/domain-check?domain=status.grab.example')).status).toBe(404);
      expect((await onHost(BASE_HOST, '/domain-check?domain=status.acme.test')).status).toBe(200);
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
