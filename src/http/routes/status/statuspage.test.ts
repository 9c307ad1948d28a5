// Statuspage's API v2 paths through the app: under /s/{slug} and at a custom domain's root, cached, CORS, password, 404.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { learnShape, shapeDifferences } from '../../../../test/json-shape.js';
import { dialects } from '../../../../test/store-dialects.js';
import { STATUSPAGE_PATHS } from '../../../render/statuspage.js';
import { resolvePageTarget } from './page-paths.js';
import { fastFormResponse } from './serve-form.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Website, type: tcp, config: { host: 127.0.0.1, port: 443 } }
pages:
  - slug: acme
    title: Acme Network
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby, group: Minecraft }
      - { name: Website, monitor: web }
      - { name: Forum }
    incidents:
      - key: lag
        title: Lobby lag spikes
        status: identified
        impact: minor
        startedAt: 2026-11-20T11:00:00Z
        components: [Lobby]
        updates:
          - { at: 2026-11-20T11:00:00Z, status: investigating, message: Looking into it. }
          - { at: 2026-11-20T11:30:00Z, status: identified, message: A plugin leaks memory. }
    maintenance:
      - { key: switches, title: Network upgrade, startsAt: 2026-11-22T02:00:00Z, endsAt: 2026-11-22T04:00:00Z, components: [Website] }
  - slug: secret
    title: Secret
    password: hunter2-long
    components: [{ name: Lobby, monitor: lobby }]
`;

const summaryShape = learnShape(
  JSON.parse(readFileSync(new URL('../../../../test/fixtures/statuspage/summary.json', import.meta.url), 'utf8')),
);

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`Statuspage's API v2 on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({ monitorId: h.monitors.lobby!.id, ok: true, latencyMs: 20, source: 'edge' });
      await h.ingest.record({
        monitorId: h.monitors.web!.id,
        ok: false,
        error: 'connect ECONNREFUSED',
        source: 'edge',
      });
      await h.ingest.record({
        monitorId: h.monitors.web!.id,
        ok: false,
        error: 'connect ECONNREFUSED',
        source: 'edge',
      });
    });
    afterAll(() => h?.close());

    it("serves summary.json in Statuspage's shape, with the page's state in Statuspage's words", async () => {
      const res = await h.request('/s/acme/api/v2/summary.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const summary = await res.json();
      expect(shapeDifferences(summaryShape, summary)).toEqual([]);
      expect(summary.page).toMatchObject({ name: 'Acme Network', url: 'http://warden.test/s/acme' });
      expect(summary.status).toEqual({ indicator: 'major', description: 'Partial outage: 1 of 3 components down' });
      expect(summary.components.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
        // The lag incident (minor) holds the lobby degraded, and its group with it.
        ['Minecraft', 'degraded_performance'],
        ['Lobby', 'degraded_performance'],
        ['Website', 'major_outage'],
        ['Forum', 'operational'],
      ]);
      expect(
        summary.incidents.map((i: { name: string; incident_updates: unknown[] }) => [
          i.name,
          i.incident_updates.length,
        ]),
      ).toEqual([['Lobby lag spikes', 2]]);
      expect(summary.scheduled_maintenances.map((m: { name: string; status: string }) => [m.name, m.status])).toEqual([
        ['Network upgrade', 'scheduled'],
      ]);
    });

    it('serves every endpoint under /s/{slug} and at the root of the custom domain, the same bytes', async () => {
      for (const path of Object.values(STATUSPAGE_PATHS)) {
        const [slug, domain] = await Promise.all([
          h.request(`/s/acme${path}`),
          h.request(path, { host: 'status.acme.test' }),
        ]);
        expect([slug.status, domain.status], path).toEqual([200, 200]);
        expect(domain.headers.get('etag'), path).toBe(slug.headers.get('etag'));
        expect(Object.keys(await slug.json()), path).toContain('page');
      }
      const unresolved = await (
        await h.request('/api/v2/incidents/unresolved.json', { host: 'status.acme.test' })
      ).json();
      expect(unresolved.incidents.map((i: { status: string }) => i.status)).toEqual(['identified']);
      // Only a page's own domain answers at the root: Warden's own address has no /api/v2.
      expect((await h.request('/api/v2/summary.json')).status).toBe(404);
    });

    it('answers If-None-Match with 304, and from the fast path once warm', async () => {
      const first = await h.request('/s/acme/api/v2/components.json');
      const again = await h.request('/s/acme/api/v2/components.json', {
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      const target = resolvePageTarget(h.pages, 'warden.test', '/s/acme/api/v2/components.json', undefined)!;
      expect(target.form).toBe('statuspageComponents');
      const hit = fastFormResponse(h.pages, target, '/s/acme/api/v2/components.json', undefined);
      expect(hit?.headers.etag).toBe(first.headers.get('etag'));
    });

    it('keeps a protected page protected, and answers 404 problem+json for an unknown page', async () => {
      const locked = await h.request('/s/secret/api/v2/summary.json');
      expect(locked.status).toBe(401);
      expect(locked.headers.get('content-type')).toBe('application/problem+json');
      const open = await h.request('/s/secret/api/v2/summary.json', {
        headers: { authorization: 'Bearer hunter2-long' },
      });
      expect(open.status).toBe(200);
      expect(open.headers.get('cache-control')).toBe('private, no-store');
      const unknown = await h.request('/s/nope/api/v2/incidents/unresolved.json');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    });
  });
