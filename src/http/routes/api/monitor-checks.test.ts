// The dashboard's monitor operations through the API: testing a monitor before saving it, checking one now (against a
// TCP listener on 127.0.0.1), and the monitor types.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the dashboard's monitor API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let listener: Server;
    let port = 0;

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      listener = createServer((socket) => socket.end());
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => listener?.close(resolve));
      await h?.close();
    });

    describe('POST /api/v1/monitors/test and /api/v1/monitors/{id}/check', () => {
      const tcpBody = (host: string, p: number) => ({
        key: 'probe',
        name: 'Probe',
        type: 'tcp',
        config: { host, port: p },
      });

      it('refuses private targets as the edge runner does for this organization, storing nothing', async () => {
        // Two organizations and no setting: private addresses are refused (WARDEN_PROBE_PRIVATE_TARGETS=auto).
        const res = await h.call('POST', '/api/v1/monitors/test', { body: tcpBody('127.0.0.1', port) });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({ ok: false, latencyMs: null, degraded: false });
        expect(body.error).toMatch(/^refused: 127\.0\.0\.1 is/);
        expect(await h.store.monitors.findByKey(h.a.id, 'probe')).toBeUndefined();
      });

      it('runs a body once where the organization may reach it', async () => {
        await h.store.organizations.upsert(
          { id: h.a.id, key: 'alpha', name: 'Alpha', probePrivateTargets: 'allow' },
          T0,
        );
        const res = await h.call('POST', '/api/v1/monitors/test', {
          body: { ...tcpBody('127.0.0.1', port), degradedLatencyMs: 100_000 },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          ok: true,
          error: null,
          degraded: false,
          message: expect.stringContaining(`port ${port} open`),
        });
      });

      it('answers 400 naming the field of an invalid body, 409 for relay and push monitors, 403 for a read key', async () => {
        const invalid = await h.call('POST', '/api/v1/monitors/test', { body: tcpBody('127.0.0.1', 70_000) });
        expect(invalid.status).toBe(400);
        expect((await invalid.json()).errors[0].path).toBe('body.config.port');
        const relay = await h.call('POST', '/api/v1/monitors/test', {
          body: { ...tcpBody('10.0.0.2', 22), runOn: 'relay', relay: 'basement' },
        });
        expect(relay.status).toBe(409);
        const push = await h.call('POST', '/api/v1/monitors/test', {
          body: { key: 'cron', name: 'Cron', type: 'heartbeat' },
        });
        expect(push.status).toBe(409);
        expect(
          (await h.call('POST', '/api/v1/monitors/test', { key: h.a.readKey, body: tcpBody('127.0.0.1', port) }))
            .status,
        ).toBe(403);
      });

      it('checks an edge monitor now: stored, its state derived, and refuses relay monitors', async () => {
        const created = await (
          await h.call('POST', '/api/v1/monitors', { body: { ...tcpBody('127.0.0.1', port), key: 'local' } })
        ).json();
        const res = await h.call('POST', `/api/v1/monitors/${created.id}/check`);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({ ok: true, state: 'up', checkedAt: h.clock.now() });
        const history = await (await h.call('GET', `/api/v1/monitors/${created.id}/history`)).json();
        expect(history.checks).toHaveLength(1);
        expect(history.checks[0]).toMatchObject({ ok: true, source: 'edge' });
        const relay = await h.call('POST', `/api/v1/monitors/${h.a.monitors.panel!.id}/check`);
        expect(relay.status).toBe(409);
        expect((await relay.json()).detail).toContain('runs on a relay');
        expect((await h.call('POST', `/api/v1/monitors/${h.b.monitors.hub!.id}/check`)).status).toBe(404);
      });

      it('allows an organization a few probe runs at a time (429 with Retry-After beyond)', async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++)
          statuses.push(
            (await h.call('POST', '/api/v1/monitors/test', { key: h.b.writeKey, body: tcpBody('127.0.0.1', 1) }))
              .status,
          );
        expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
        const refused = await h.call('POST', '/api/v1/monitors/test', {
          key: h.b.writeKey,
          body: tcpBody('127.0.0.1', 1),
        });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // Another organization keeps its own budget.
        expect((await h.call('POST', '/api/v1/monitors/test', { body: tcpBody('127.0.0.1', port) })).status).toBe(200);
      });
    });

    describe('GET /api/v1/monitor-types', () => {
      it("gives each type's JSON Schema with descriptions and defaults, and the shared fields", async () => {
        const res = await h.call('GET', '/api/v1/monitor-types', { key: h.a.readKey });
        expect(res.status).toBe(200);
        const { types, fields } = await res.json();
        const http = types.find((t: { id: string }) => t.id === 'http');
        expect(http).toMatchObject({
          label: expect.any(String),
          runsOn: ['edge', 'relay'],
          probed: true,
          secrets: expect.arrayContaining(['headers']),
        });
        expect(http.config.properties.url).toMatchObject({ type: 'string' });
        expect(http.config.properties.method.default).toBe('GET');
        expect(http.config.required).toEqual(['url']);
        expect(types.find((t: { id: string }) => t.id === 'heartbeat')).toMatchObject({
          runsOn: ['push'],
          probed: false,
        });
        expect(fields.properties.tags).toMatchObject({ type: 'array', maxItems: 20, default: [] });
        expect(fields.properties.intervalSec).toMatchObject({ default: 60, minimum: 10 });
        expect(fields.required).toEqual(['key', 'name']);
      });
    });
  });
}
