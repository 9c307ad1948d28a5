// GET / on Warden's own address: the public pages with their overall state and the dashboard link, never a protected
// page; a redirect to the page when there is only one (once an account exists: before, / leads to the setup); a page's
// custom domain still serves that page at /.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { dialects } from '../../../test/store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: tcp, config: { host: 127.0.0.1, port: 443 } }
  - { key: fresh, name: Fresh, type: tcp, config: { host: 127.0.0.1, port: 8080 } }
pages:
  - { slug: survival, title: Survival, description: Our survival server, components: [{ name: Lobby, monitor: lobby }] }
  - { slug: creative, title: Creative, customDomain: status.creative.test, components: [{ name: Web, monitor: web }] }
  - { slug: modded, title: Modded, components: [{ name: Fresh, monitor: fresh }] }
  - slug: events
    title: Events
    components: [{ name: Stage }]
    maintenance:
      - { key: rebuild, title: Stage rebuild, startsAt: 2026-11-20T11:00:00Z, endsAt: 2026-11-20T13:00:00Z, components: [Stage] }
  - { slug: staff, title: Staff only, password: hunter2222 }
`;

/** The listed pages as a visitor reads them: title, then the state's words. */
async function listed(h: Harness): Promise<{ html: string; rows: string[][] }> {
  const html = await (await h.request('/')).text();
  const rows = [
    ...html.matchAll(
      /<li class="component" data-testid="page" data-state="(\w+)">.*?<a href="([^"]+)">([^<]+)<\/a>.*?<span class="state t-\w+"><svg[^>]*>.*?<\/svg>([^<]+)<\/span>/g,
    ),
  ].map(([, state, href, title, words]) => [title!, href!, state!, words!]);
  return { html, rows };
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`GET / on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, YAML);
      await h.ingest.record({ monitorId: h.monitors.lobby!.id, ok: true, latencyMs: 12, source: 'edge' });
      for (let i = 0; i < 2; i++)
        await h.ingest.record({
          monitorId: h.monitors.web!.id,
          ok: false,
          error: 'connect ECONNREFUSED',
          source: 'edge',
        });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('lists each public page by title with its overall state in words and icon, not password-protected ones', async () => {
      const res = await h.request('/');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const { html, rows } = await listed(h);
      expect(rows).toEqual([
        ['Creative', '/s/creative', 'down', 'Major outage'],
        ['Events', '/s/events', 'maintenance', 'Scheduled maintenance in progress'],
        ['Modded', '/s/modded', 'unknown', 'Status unknown'],
        ['Survival', '/s/survival', 'operational', 'All systems operational'],
      ]);
      expect(html).toContain('<span class="component-desc">Our survival server</span>');
      expect(html).toContain('href="/app/"');
      expect(html).not.toContain('/s/staff');
      expect(html).not.toContain('Staff only');
    });

    it('shows a state change on the next visit', async () => {
      await h.ingest.record({ monitorId: h.monitors.web!.id, ok: true, latencyMs: 30, source: 'edge' });
      await expect
        .poll(async () => (await listed(h)).rows[0])
        .toEqual(['Creative', '/s/creative', 'operational', 'All systems operational']);
    });

    it('serves the page itself at / on its custom domain', async () => {
      const res = await h.request('/', { host: 'status.creative.test' });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<h1>Creative</h1>');
      expect(html).not.toContain('href="/app/"');
    });
  });

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`GET / with one public page, or none, on ${dialect.name}`, () => {
    it('redirects to the only public page once the dashboard has its owner (a protected page does not count)', async () => {
      const h = await startHarness(
        dialect,
        'organization: { name: Solo }\npages:\n  - { slug: solo, title: Solo }\n  - { slug: staff, title: Staff, password: hunter2222 }\n',
      );
      try {
        // Before the first account, the one page is listed and / leads to the setup (the quick start: the demo alone).
        const before = await h.request('/');
        expect(before.status).toBe(200);
        const html = await before.text();
        expect(html).toContain('href="/s/solo"');
        expect(html).toContain('<a href="/app/">Set up the dashboard</a>');
        expect(html).toContain('warden setup-code');

        await h.opened.store.users.insert(
          { id: 'usr_owner', email: 'owner@example.com', name: 'Owner', passwordHash: 'x', emailVerifiedAt: 1 },
          1,
        );
        const res = await h.request('/');
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/s/solo');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect((await h.request(res.headers.get('location')!)).status).toBe(200);
      } finally {
        await h.close();
      }
    });

    it('says there is no public page yet, and still links to the dashboard', async () => {
      const h = await startHarness(
        dialect,
        'organization: { name: Nobody }\npages:\n  - { slug: staff, title: Staff, password: hunter2222 }\n',
      );
      try {
        const res = await h.request('/');
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain('<p class="empty">No public status page yet.</p>');
        expect(html).toContain('href="/app/"');
        expect(html).not.toContain('/s/staff');
      } finally {
        await h.close();
      }
    });
  });
