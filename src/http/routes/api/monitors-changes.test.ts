// The monitor API, changing what exists: PATCH and DELETE /api/v1/monitors/{id}, a new push token, and the history
// of checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { HOUR_MS } from '../../../domain/check.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitor API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('PATCH /api/v1/monitors/{id}', () => {
      it('changes the fields given, merges config and keeps redacted secrets', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: {
              key: 'ptero',
              name: 'Ptero',
              type: 'pterodactyl',
              config: { panelUrl: 'https://p.example.com', serverId: 'aaaa1111', apiKey: 'ptlc_keep_me' },
            },
          })
        ).json();
        const res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, {
          body: {
            name: 'Panel 2',
            intervalSec: 120,
            enabled: false,
            config: { ...created.config, serverId: 'bbbb2222' },
          },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          name: 'Panel 2',
          intervalSec: 120,
          enabled: false,
          config: { serverId: 'bbbb2222', apiKey: '[redacted]' },
        });
        const stored = await h.store.monitors.findById(created.id);
        expect(stored?.config).toMatchObject({ serverId: 'bbbb2222', apiKey: 'ptlc_keep_me' });
      });

      it('moves a monitor onto a relay and off it again, telling runners and the pages that show it', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: { key: 'mover', name: 'Mover', type: 'tcp', config: { host: 'a.example', port: 1 } },
          })
        ).json();
        const page = await (
          await h.call('POST', '/api/v1/pages', { body: { slug: 'mover-page', title: 'Mover' } })
        ).json();
        await h.call('POST', '/api/v1/pages/mover-page/components', { body: { name: 'Mover', monitor: 'mover' } });
        const before = h.events.length;
        let res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, {
          body: { runOn: 'relay', relay: 'basement' },
        });
        expect(await res.json()).toMatchObject({ runOn: 'relay', relayKey: 'basement' });
        expect(h.events.slice(before)).toEqual(
          expect.arrayContaining([
            { type: 'monitors.changed', at: T0, organizationId: h.a.id },
            { type: 'page.changed', at: T0, pageId: page.id },
          ]),
        );
        res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, { body: { runOn: 'edge' } });
        expect(await res.json()).toMatchObject({ runOn: 'edge', relayKey: null, relayId: null });
      });

      it('answers 400 for an invalid config or place', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: { key: 'strict', name: 'S', type: 'tcp', config: { host: 'a.example', port: 1 } },
          })
        ).json();
        let res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, { body: { config: { port: 0 } } });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'body.config.port' })]);
        res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, { body: { runOn: 'push' } });
        expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'body.runOn' })]);
        res = await h.call('PATCH', `/api/v1/monitors/${created.id}`, { body: { type: 'http' } });
        expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'body' })]);
      });

      it('refuses to change a monitor warden.yaml manages (409)', async () => {
        const res = await h.call('PATCH', `/api/v1/monitors/${h.a.monitors.lobby!.id}`, { body: { name: 'Renamed' } });
        expect(res.status).toBe(409);
        expect((await res.json()).detail).toMatch(/managed by warden\.yaml/);
      });
    });

    describe('DELETE /api/v1/monitors/{id}', () => {
      it('deletes a monitor created through the API', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: { key: 'temp', name: 'T', type: 'tcp', config: { host: 'a.example', port: 1 } },
          })
        ).json();
        const before = h.events.length;
        expect((await h.call('DELETE', `/api/v1/monitors/${created.id}`)).status).toBe(204);
        expect((await h.call('GET', `/api/v1/monitors/${created.id}`)).status).toBe(404);
        expect(h.events.slice(before)).toContainEqual({ type: 'monitors.changed', at: T0, organizationId: h.a.id });
      });

      it('changes and deletes a monitor named by its key, the audit log naming its id and key', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: { key: 'by-key', name: 'K', type: 'tcp', config: { host: 'a.example', port: 1 } },
          })
        ).json();
        const patched = await h.call('PATCH', '/api/v1/monitors/by-key', { body: { name: 'Renamed' } });
        expect(patched.status).toBe(200);
        expect(await patched.json()).toMatchObject({ id: created.id, name: 'Renamed' });
        expect((await h.call('DELETE', '/api/v1/monitors/by-key')).status).toBe(204);
        expect((await h.call('GET', `/api/v1/monitors/${created.id}`)).status).toBe(404);
        // The test's clock stands still: find the entry among those of the same instant.
        const entry = (await h.store.audit.list({ organizationId: h.a.id, limit: 100 })).find(
          (e) => e.action === 'monitor.delete' && e.objectLabel === 'by-key',
        );
        expect(entry).toMatchObject({ action: 'monitor.delete', objectId: created.id, objectLabel: 'by-key' });
      });

      it('refuses to delete a monitor warden.yaml manages (409)', async () => {
        expect((await h.call('DELETE', `/api/v1/monitors/${h.a.monitors.lobby!.id}`)).status).toBe(409);
      });
    });

    describe('POST /api/v1/monitors/{id}/push-token', () => {
      it('issues a new token for a push monitor and refuses other monitors', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', { body: { key: 'beat', name: 'Beat', type: 'heartbeat' } })
        ).json();
        const res = await h.call('POST', `/api/v1/monitors/${created.id}/push-token`);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.pushToken).toMatch(/^wdp_/);
        expect(body.pushToken).not.toBe(created.pushToken);
        expect((await h.call('POST', `/api/v1/monitors/${h.a.monitors.lobby!.id}/push-token`)).status).toBe(409);
      });
    });

    describe('GET /api/v1/monitors/{id}/history', () => {
      let id: string;
      beforeAll(async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', {
            body: { key: 'hist', name: 'History', type: 'tcp', config: { host: 'a.example', port: 1 } },
          })
        ).json();
        id = created.id;
        // Five checks an hour apart in the last five hours, the third failing; one check 10 days ago.
        const checks = [1, 2, 3, 4, 5].map((n) => ({
          monitorId: id,
          ok: n !== 3,
          latencyMs: n * 10,
          data: { players: n },
          checkedAt: T0 - n * HOUR_MS + 60_000,
          source: 'edge' as const,
        }));
        checks.push({
          monitorId: id,
          ok: true,
          latencyMs: 5,
          data: { players: 50 },
          checkedAt: T0 - 240 * HOUR_MS,
          source: 'edge',
        });
        await h.ingest.recordMany(checks);
      });

      it('answers the raw checks and hourly buckets of the last 24 hours by default, with the uptime', async () => {
        const res = await h.call('GET', `/api/v1/monitors/${id}/history`, { key: h.a.readKey });
        expect(res.status).toBe(200);
        const history = await res.json();
        expect(history).toMatchObject({
          monitorId: id,
          hours: 24,
          from: T0 - 24 * HOUR_MS,
          to: T0,
          bucketPeriod: 'hour',
          checkCount: 5,
          uptime: 0.8,
          nextCursor: null,
        });
        expect(history.checks.map((c: { latencyMs: number }) => c.latencyMs)).toEqual([10, 20, 30, 40, 50]);
        expect(history.checks[2]).toMatchObject({ ok: false, data: { players: 3 }, source: 'edge' });
        expect(history.buckets).toHaveLength(5);
        expect(history.buckets[0]).toEqual({
          start: T0 - 5 * HOUR_MS,
          count: 1,
          upCount: 1,
          degradedCount: 0,
          uptime: 1,
          latencyMinMs: 50,
          latencyAvgMs: 50,
          latencyMaxMs: 50,
          playersAvg: 5,
          playersMax: 5,
        });
      });

      it('pages through the checks with a cursor', async () => {
        const first = await (await h.call('GET', `/api/v1/monitors/${id}/history?limit=2`)).json();
        expect(first.checks).toHaveLength(2);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await (
          await h.call('GET', `/api/v1/monitors/${id}/history?limit=2&cursor=${first.nextCursor}`)
        ).json();
        const third = await (
          await h.call('GET', `/api/v1/monitors/${id}/history?limit=2&cursor=${second.nextCursor}`)
        ).json();
        expect(
          [...first.checks, ...second.checks, ...third.checks].map((c: { latencyMs: number }) => c.latencyMs),
        ).toEqual([10, 20, 30, 40, 50]);
        expect(third.nextCursor).toBeNull();
      });

      it('uses daily buckets beyond 7 days', async () => {
        const history = await (await h.call('GET', `/api/v1/monitors/${id}/history?hours=720`)).json();
        expect(history.bucketPeriod).toBe('day');
        expect(history.checkCount).toBe(6);
        expect(history.buckets.map((b: { count: number }) => b.count)).toEqual([1, 5]);
        expect(history.buckets[0]).toMatchObject({ playersMax: 50, latencyMinMs: 5 });
      });

      it.each([
        ['hours=0', 'query.hours'],
        ['hours=2161', 'query.hours'],
        ['hours=abc', 'query.hours'],
        ['limit=1001', 'query.limit'],
        ['cursor=not-a-cursor', 'query.cursor'],
      ])('answers 400 for %s', async (query, path) => {
        const res = await h.call('GET', `/api/v1/monitors/${id}/history?${query}`);
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([expect.objectContaining({ path })]);
      });

      it('answers 404 for a monitor of another organization', async () => {
        const res = await h.call('GET', `/api/v1/monitors/${id}/history`, { key: h.b.readKey });
        expect(res.status).toBe(404);
      });
    });
  });
}
