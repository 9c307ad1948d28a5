import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`incident and maintenance API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let pageId: string;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      pageId = (await (await h.call('POST', '/api/v1/pages', { body: { slug: 'ops', title: 'Ops' } })).json()).id;
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'lobby', name: 'Lobby server' } });
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'web', name: 'Website' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('/api/v1/pages/{slug}/incidents', () => {
      it('opens an incident with its first update and affected components (by key or name), telling the page caches', async () => {
        const before = h.events.length;
        const res = await h.call('POST', '/api/v1/pages/ops/incidents', {
          body: {
            title: 'Lobby down',
            impact: 'major',
            message: 'We are looking into it.',
            components: ['lobby', 'Website'],
          },
        });
        expect(res.status).toBe(201);
        const incident = await res.json();
        expect(incident).toMatchObject({
          key: null,
          title: 'Lobby down',
          status: 'investigating',
          impact: 'major',
          startedAt: T0,
          resolvedAt: null,
          components: ['lobby', 'web'],
          managedBy: 'api',
          updates: [{ status: 'investigating', message: 'We are looking into it.', at: T0, id: expect.any(String) }],
        });
        expect(h.events.slice(before)).toContainEqual({ type: 'page.changed', at: T0, pageId });
      });

      it('moves an incident through its statuses with updates, resolving and reopening it', async () => {
        const incident = await (
          await h.call('POST', '/api/v1/pages/ops/incidents', {
            body: { key: 'db', title: 'Database', message: 'Slow queries' },
          })
        ).json();
        for (const status of ['identified', 'monitoring'] as const) {
          h.clock.advance(60_000);
          const res = await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, {
            body: { status, message: `now ${status}` },
          });
          expect(res.status).toBe(201);
          expect(await res.json()).toMatchObject({ status, resolvedAt: null });
        }
        h.clock.advance(60_000);
        let res = await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, {
          body: { status: 'resolved', message: 'Fixed', impact: 'minor', components: ['web'] },
        });
        const resolved = await res.json();
        expect(resolved).toMatchObject({
          status: 'resolved',
          impact: 'minor',
          resolvedAt: h.clock.now(),
          components: ['web'],
        });
        expect(resolved.updates.map((u: { status: string }) => u.status)).toEqual([
          'investigating',
          'identified',
          'monitoring',
          'resolved',
        ]);
        res = await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, {
          body: { status: 'investigating', message: 'Back again' },
        });
        expect(await res.json()).toMatchObject({ status: 'investigating', resolvedAt: null });
      });

      it('keeps the timeline in order when updates arrive within the same millisecond', async () => {
        const incident = await (
          await h.call('POST', '/api/v1/pages/ops/incidents', { body: { title: 'Quick', message: 'one' } })
        ).json();
        await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, {
          body: { status: 'identified', message: 'two' },
        });
        const res = await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, {
          body: { status: 'monitoring', message: 'three' },
        });
        expect((await res.json()).updates.map((u: { message: string }) => u.message)).toEqual(['one', 'two', 'three']);
      });

      it('lists, reads, changes and deletes incidents', async () => {
        const { incidents } = await (
          await h.call('GET', '/api/v1/pages/ops/incidents?limit=2', { key: h.a.readKey })
        ).json();
        expect(incidents).toHaveLength(2);
        const id = incidents[0].id;
        expect(await (await h.call('GET', `/api/v1/pages/ops/incidents/${id}`)).json()).toMatchObject({ id });
        const res = await h.call('PATCH', `/api/v1/pages/ops/incidents/${id}`, {
          body: {
            title: 'Renamed',
            impact: 'critical',
            components: ['Lobby server'],
            startedAt: '2026-03-10T11:00:00Z',
          },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          title: 'Renamed',
          impact: 'critical',
          components: ['lobby'],
          startedAt: T0 - 3_600_000,
        });
        expect((await h.call('DELETE', `/api/v1/pages/ops/incidents/${id}`)).status).toBe(204);
        expect((await h.call('GET', `/api/v1/pages/ops/incidents/${id}`)).status).toBe(404);
      });

      it('answers 400 for an unknown component or status, and 409 for a duplicate key', async () => {
        let res = await h.call('POST', '/api/v1/pages/ops/incidents', {
          body: { title: 'X', message: 'm', components: ['lobby', 'nope'] },
        });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([
          { path: 'body.components[1]', message: 'no component "nope" on this page' },
        ]);
        res = await h.call('POST', '/api/v1/pages/ops/incidents', {
          body: { title: 'X', message: 'm', status: 'panicking' },
        });
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toEqual(['body.status']);
        res = await h.call('POST', '/api/v1/pages/ops/incidents', { body: { title: 'X' } });
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toEqual(['body.message']);
        await h.call('POST', '/api/v1/pages/ops/incidents', { body: { key: 'dup', title: 'X', message: 'm' } });
        expect(
          (await h.call('POST', '/api/v1/pages/ops/incidents', { body: { key: 'dup', title: 'X', message: 'm' } }))
            .status,
        ).toBe(409);
      });

      it('opens incidents on a config-managed page but refuses to touch the incidents warden.yaml manages', async () => {
        expect(
          (await h.call('POST', '/api/v1/pages/alpha/incidents', { body: { title: 'API incident', message: 'm' } }))
            .status,
        ).toBe(201);
        const { incidents } = await (await h.call('GET', '/api/v1/pages/alpha/incidents')).json();
        const configured = incidents.find((i: { key: string | null }) => i.key === 'outage');
        expect(configured.managedBy).toBe('config');
        expect(
          (await h.call('PATCH', `/api/v1/pages/alpha/incidents/${configured.id}`, { body: { title: 'x' } })).status,
        ).toBe(409);
        expect(
          (
            await h.call('POST', `/api/v1/incidents/${configured.id}/updates`, {
              body: { status: 'resolved', message: 'x' },
            })
          ).status,
        ).toBe(409);
        expect((await h.call('DELETE', `/api/v1/pages/alpha/incidents/${configured.id}`)).status).toBe(409);
      });

      it("answers 404 for another organization's incident, by any route", async () => {
        const { incidents } = await (await h.call('GET', '/api/v1/pages/beta/incidents', { key: h.b.readKey })).json();
        const theirs = incidents[0].id;
        expect((await h.call('GET', '/api/v1/pages/beta/incidents')).status).toBe(404);
        expect((await h.call('GET', `/api/v1/pages/ops/incidents/${theirs}`)).status).toBe(404);
        expect(
          (await h.call('POST', `/api/v1/incidents/${theirs}/updates`, { body: { status: 'resolved', message: 'x' } }))
            .status,
        ).toBe(404);
      });
    });

    describe('/api/v1/pages/{slug}/maintenance', () => {
      it('schedules, lists, reads, changes and deletes a maintenance window', async () => {
        const before = h.events.length;
        let res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
          body: {
            key: 'patch',
            title: 'Patch day',
            startsAt: '2026-03-12T02:00:00Z',
            endsAt: '2026-03-12T03:00:00Z',
            components: ['lobby'],
          },
        });
        expect(res.status).toBe(201);
        const window = await res.json();
        expect(window).toMatchObject({
          key: 'patch',
          startsAt: Date.UTC(2026, 2, 12, 2),
          endsAt: Date.UTC(2026, 2, 12, 3),
          components: ['lobby'],
          managedBy: 'api',
        });
        expect(h.events.slice(before)).toContainEqual({ type: 'page.changed', at: expect.any(Number), pageId });
        const { maintenance } = await (
          await h.call('GET', '/api/v1/pages/ops/maintenance', { key: h.a.readKey })
        ).json();
        expect(maintenance.map((m: { key: string }) => m.key)).toEqual(['patch']);
        expect(await (await h.call('GET', `/api/v1/pages/ops/maintenance/${window.id}`)).json()).toMatchObject({
          title: 'Patch day',
        });
        res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, {
          body: { endsAt: Date.UTC(2026, 2, 12, 4), description: 'Longer', components: [] },
        });
        expect(await res.json()).toMatchObject({
          endsAt: Date.UTC(2026, 2, 12, 4),
          description: 'Longer',
          components: [],
        });
        expect((await h.call('DELETE', `/api/v1/pages/ops/maintenance/${window.id}`)).status).toBe(204);
        expect((await h.call('GET', `/api/v1/pages/ops/maintenance/${window.id}`)).status).toBe(404);
      });

      it('answers 400 when a window ends before it starts, on create and on change', async () => {
        let res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
          body: { title: 'Backwards', startsAt: T0, endsAt: T0 - 1 },
        });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([{ path: 'body.endsAt', message: 'must be after startsAt' }]);
        const window = await (
          await h.call('POST', '/api/v1/pages/ops/maintenance', {
            body: { title: 'Ok', startsAt: T0, endsAt: T0 + 1000 },
          })
        ).json();
        res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, { body: { startsAt: T0 + 5000 } });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([{ path: 'body.endsAt', message: 'must be after startsAt' }]);
        res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
          body: { title: 'Bad time', startsAt: 'tomorrow', endsAt: T0 },
        });
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toEqual(['body.startsAt']);
      });

      it('refuses to touch windows warden.yaml manages, and hides other organizations', async () => {
        const { maintenance } = await (await h.call('GET', '/api/v1/pages/alpha/maintenance')).json();
        const configured = maintenance.find((m: { key: string | null }) => m.key === 'upgrade');
        expect(
          (await h.call('PATCH', `/api/v1/pages/alpha/maintenance/${configured.id}`, { body: { title: 'x' } })).status,
        ).toBe(409);
        expect((await h.call('DELETE', `/api/v1/pages/alpha/maintenance/${configured.id}`)).status).toBe(409);
        expect((await h.call('GET', '/api/v1/pages/beta/maintenance')).status).toBe(404);
        expect((await h.call('GET', `/api/v1/pages/ops/maintenance/${configured.id}`)).status).toBe(404);
      });
    });
  });
}
