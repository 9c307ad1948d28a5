// Ordering a page's components in one request, and the organization's incidents and maintenance across its pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { HOUR_MS } from '../../../domain/check.js';

type ComponentAnswer = { id: string; key: string; group: string | null; order: number; managedBy: string };

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(
    `component order and the organization's incidents and maintenance on ${dialect.name}`,
    () => {
      let h: ApiHarness;
      const ids: Record<string, string> = {};
      beforeAll(async () => {
        h = await openApiHarness(dialect);
        await h.call('POST', '/api/v1/pages', { body: { slug: 'arranged', title: 'Arranged' } });
        for (const [key, group] of [
          ['proxy', 'Network'],
          ['lobby', 'Servers'],
          ['survival', 'Servers'],
        ] as const) {
          const res = await h.call('POST', '/api/v1/pages/arranged/components', {
            body: { key, name: key, group, monitor: 'lobby' },
          });
          ids[key] = (await res.json()).id;
        }
      });
      afterAll(async () => {
        await h?.close();
      });

      const keys = async (slug: string) =>
        ((await (await h.call('GET', `/api/v1/pages/${slug}/components`)).json()).components as ComponentAnswer[]).map(
          (c) => [c.key, c.group],
        );

      it('puts the components in the order given, moving groups, in one write the page shows at once', async () => {
        const before = h.events.length;
        const res = await h.call('POST', '/api/v1/pages/arranged/components/order', {
          body: {
            components: [{ id: ids.survival }, { id: ids.lobby, group: 'Lobbies' }, { id: ids.proxy, group: null }],
          },
        });
        expect(res.status).toBe(200);
        const { components } = (await res.json()) as { components: ComponentAnswer[] };
        expect(components.map((c) => [c.key, c.group, c.order])).toEqual([
          ['survival', 'Servers', 0],
          ['lobby', 'Lobbies', 1],
          ['proxy', null, 2],
        ]);
        expect(await keys('arranged')).toEqual([
          ['survival', 'Servers'],
          ['lobby', 'Lobbies'],
          ['proxy', null],
        ]);
        const page = await h.store.pages.findBySlug('arranged');
        expect(h.events.slice(before)).toContainEqual({ type: 'page.changed', at: T0, pageId: page?.id });
        // The same order again changes nothing.
        const again = h.events.length;
        await h.call('POST', '/api/v1/pages/arranged/components/order', {
          body: { components: components.map((c) => ({ id: c.id })) },
        });
        expect(h.events.slice(again).filter((e) => e.type === 'page.changed')).toEqual([]);
      });

      it('answers 400 naming each unknown, repeated or missing component, and changes nothing', async () => {
        const res = await h.call('POST', '/api/v1/pages/arranged/components/order', {
          body: { components: [{ id: ids.lobby }, { id: ids.lobby }, { id: 'cmp_nope' }] },
        });
        expect(res.status).toBe(400);
        const { errors } = await res.json();
        expect(errors).toEqual([
          { path: 'body.components[1].id', message: 'listed twice' },
          { path: 'body.components[2].id', message: 'no component "cmp_nope" on this page' },
          { path: 'body.components', message: expect.stringMatching(/missing "survival", "proxy"/) },
        ]);
        expect((await keys('arranged')).map(([key]) => key)).toEqual(['survival', 'lobby', 'proxy']);
      });

      it('answers 404 for another organization’s page, and 403 to a read key', async () => {
        const body = { components: [] };
        expect((await h.call('POST', '/api/v1/pages/beta/components/order', { body })).status).toBe(404);
        expect(
          (await h.call('POST', '/api/v1/pages/arranged/components/order', { key: h.a.readKey, body })).status,
        ).toBe(403);
      });

      it('keeps the components warden.yaml manages where they are, numbering the API’s around them', async () => {
        const added = await (
          await h.call('POST', '/api/v1/pages/alpha/components', { body: { key: 'extra', name: 'Extra' } })
        ).json();
        const second = await (
          await h.call('POST', '/api/v1/pages/alpha/components', { body: { key: 'more', name: 'More' } })
        ).json();
        const lobby = (
          (await (await h.call('GET', '/api/v1/pages/alpha/components')).json()).components as ComponentAnswer[]
        ).find((c) => c.key === 'lobby');
        expect(lobby?.managedBy).toBe('config');
        const ok = await h.call('POST', '/api/v1/pages/alpha/components/order', {
          body: { components: [{ id: lobby?.id }, { id: second.id }, { id: added.id }] },
        });
        expect(ok.status).toBe(200);
        expect(await keys('alpha')).toEqual([
          ['lobby', null],
          ['more', null],
          ['extra', null],
        ]);
        const moved = await h.call('POST', '/api/v1/pages/alpha/components/order', {
          body: { components: [{ id: second.id }, { id: lobby?.id }, { id: added.id }] },
        });
        expect(moved.status).toBe(409);
        expect((await moved.json()).detail).toContain('component "lobby" is managed by warden.yaml');
        const regrouped = await h.call('POST', '/api/v1/pages/alpha/components/order', {
          body: { components: [{ id: lobby?.id, group: 'Mine' }, { id: second.id }, { id: added.id }] },
        });
        expect(regrouped.status).toBe(409);
        expect((await keys('alpha'))[0]).toEqual(['lobby', null]);
      });

      it('records one audit entry naming the page and how many components it ordered', async () => {
        const { entries } = await (await h.call('GET', '/api/v1/audit?objectType=page&limit=50')).json();
        const page = await h.store.pages.findBySlug('arranged');
        expect(entries.filter((e: { action: string }) => e.action === 'page.order-components')).toContainEqual(
          expect.objectContaining({
            object: { type: 'page', id: page?.id, label: 'arranged' },
            detail: { components: 3 },
          }),
        );
      });

      it('lists the incidents of every page of the organization, newest first, each naming its page, open or resolved ones alone', async () => {
        h.clock.advance(HOUR_MS);
        const opened = await (
          await h.call('POST', '/api/v1/pages/arranged/incidents', {
            body: { title: 'Lag', message: 'Looking', components: ['lobby'] },
          })
        ).json();
        const res = await h.call('GET', '/api/v1/incidents', { key: h.a.readKey });
        expect(res.status).toBe(200);
        const { incidents } = await res.json();
        expect(incidents.map((i: { title: string; page: unknown }) => [i.title, i.page])).toEqual([
          ['Lag', { slug: 'arranged', title: 'Arranged' }],
          ['Outage', { slug: 'alpha', title: 'Alpha status' }],
        ]);
        expect(incidents[0]).toMatchObject({
          id: opened.id,
          components: ['lobby'],
          updates: [{ status: 'investigating', message: 'Looking' }],
          managedBy: 'api',
        });
        await h.call('POST', `/api/v1/incidents/${opened.id}/updates`, {
          body: { status: 'resolved', message: 'Fixed' },
        });
        const titles = async (query: string) =>
          (await (await h.call('GET', `/api/v1/incidents${query}`)).json()).incidents.map(
            (i: { title: string }) => i.title,
          );
        expect(await titles('?state=open')).toEqual(['Outage']);
        expect(await titles('?state=resolved')).toEqual(['Lag']);
        expect(await titles('?limit=1')).toEqual(['Lag']);
        const bad = await h.call('GET', '/api/v1/incidents?state=maybe&limit=0');
        expect(bad.status).toBe(400);
        expect((await bad.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual([
          'query.limit',
          'query.state',
        ]);
        // Another organization sees only its own.
        expect(await (await h.call('GET', '/api/v1/incidents', { key: h.b.readKey })).json()).toMatchObject({
          incidents: [{ title: 'Fire', page: { slug: 'beta' } }],
        });
      });

      it('lists the maintenance windows of every page of the organization, soonest first, those ending after a time alone', async () => {
        const startsAt = Date.parse('2026-05-01T00:00:00Z');
        await h.call('POST', '/api/v1/pages/arranged/maintenance', {
          body: { title: 'Move', startsAt, endsAt: startsAt + HOUR_MS, components: ['proxy'] },
        });
        const { maintenance } = await (await h.call('GET', '/api/v1/maintenance', { key: h.a.readKey })).json();
        expect(
          maintenance.map((m: { title: string; page: { slug: string }; components: string[] }) => [
            m.title,
            m.page.slug,
            m.components,
          ]),
        ).toEqual([
          ['Upgrade', 'alpha', []],
          ['Move', 'arranged', ['proxy']],
        ]);
        const later = await (await h.call('GET', `/api/v1/maintenance?endingAfter=${startsAt}`)).json();
        expect(later.maintenance.map((m: { title: string }) => m.title)).toEqual(['Move']);
        expect((await h.call('GET', '/api/v1/maintenance?endingAfter=soon')).status).toBe(400);
      });
    },
  );
}
