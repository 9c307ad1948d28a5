// The monitor API, reading and creating: GET /api/v1/monitors and /{id}, POST /api/v1/monitors (changes, deletions,
// push tokens and history: monitors-changes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitor API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('GET /api/v1/monitors', () => {
      it("lists the organization's monitors with where they run, their state and latest result, secrets redacted", async () => {
        await h.ingest.record({
          monitorId: h.a.monitors.lobby!.id,
          ok: true,
          latencyMs: 42,
          message: '3/20 players',
          data: { players: 3, version: '1.21' },
          source: 'edge',
        });
        const res = await h.call('GET', '/api/v1/monitors', { key: h.a.readKey });
        expect(res.status).toBe(200);
        const { monitors } = await res.json();
        expect(monitors.map((m: { key: string }) => m.key)).toEqual(['lobby', 'panel']);
        const [lobby, panel] = monitors;
        expect(lobby).toMatchObject({
          type: 'tcp',
          runOn: 'edge',
          relayKey: null,
          intervalSec: 60,
          enabled: true,
          state: 'up',
          managedBy: 'config',
        });
        expect(lobby.latest).toMatchObject({
          ok: true,
          latencyMs: 42,
          message: '3/20 players',
          data: { players: 3, version: '1.21' },
          checkedAt: T0,
        });
        expect(lobby.stateSince).toBe(T0);
        expect(panel).toMatchObject({ runOn: 'relay', relayKey: 'basement', config: { apiKey: '[redacted]' } });
        expect(JSON.stringify(monitors)).not.toContain('ptlc_secret_value');
      });

      it('never shows another organization', async () => {
        const { monitors } = await (await h.call('GET', '/api/v1/monitors', { key: h.b.readKey })).json();
        expect(monitors.map((m: { key: string }) => m.key)).toEqual(['hub']);
      });
    });

    describe('GET /api/v1/monitors/{id}', () => {
      it('reads one monitor', async () => {
        const res = await h.call('GET', `/api/v1/monitors/${h.a.monitors.panel!.id}`, { key: h.a.readKey });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          key: 'panel',
          relayKey: 'basement',
          config: { apiKey: '[redacted]', serverId: 'abcd1234' },
        });
      });

      it("reads a monitor by its key too, but never another organization's", async () => {
        const res = await h.call('GET', '/api/v1/monitors/panel', { key: h.a.readKey });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ id: h.a.monitors.panel!.id, key: 'panel' });
        expect((await h.call('GET', '/api/v1/monitors/lobby/states', { key: h.a.readKey })).status).toBe(200);
        // "hub" is the other organization's key.
        const other = await h.call('GET', '/api/v1/monitors/hub', { key: h.a.readKey });
        expect(other.status).toBe(404);
        expect(await other.json()).toMatchObject({ detail: expect.stringContaining('hub') });
        expect((await h.call('GET', '/api/v1/monitors/hub', { key: h.b.readKey })).status).toBe(200);
      });

      it('answers 404 for an unknown id', async () => {
        const res = await h.call('GET', '/api/v1/monitors/mon_nope', { key: h.a.readKey });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
      });
    });

    describe('POST /api/v1/monitors', () => {
      it('creates a monitor with the defaults of warden.yaml and tells the edge runner', async () => {
        const before = h.events.length;
        const res = await h.call('POST', '/api/v1/monitors', {
          body: {
            key: 'web',
            name: 'Website',
            type: 'http',
            config: { url: 'https://example.com', headers: { authorization: 'secret' } },
          },
        });
        expect(res.status).toBe(201);
        const body = await res.json();
        expect(body).toMatchObject({
          key: 'web',
          type: 'http',
          runOn: 'edge',
          intervalSec: 60,
          timeoutMs: 10_000,
          managedBy: 'api',
          pushToken: null,
        });
        expect(body.config).toMatchObject({ url: 'https://example.com', method: 'GET', headers: '[redacted]' });
        expect(h.events.slice(before)).toContainEqual({ type: 'monitors.changed', at: T0, organizationId: h.a.id });
      });

      it('returns the push token of a heartbeat monitor once', async () => {
        const res = await h.call('POST', '/api/v1/monitors', {
          body: { key: 'cron', name: 'Nightly backup', type: 'heartbeat', config: { graceSec: 3600 } },
        });
        expect(res.status).toBe(201);
        const body = await res.json();
        expect(body.runOn).toBe('push');
        // Nothing checks a heartbeat on a schedule: no interval, its period is graceSec.
        expect(body).toMatchObject({ intervalSec: null, config: { graceSec: 3600 } });
        expect(body.pushToken).toMatch(/^wdp_/);
        expect(body.pushTokenPrefix).toBe(body.pushToken.slice(0, 12));
        const read = await (await h.call('GET', `/api/v1/monitors/${body.id}`)).json();
        expect(read.pushToken).toBeUndefined();
        expect(JSON.stringify(read)).not.toContain(body.pushToken);
      });

      it('documents intervalSec as null for push monitors in the OpenAPI document', async () => {
        const doc = await (await h.call('GET', '/api/openapi.json', { key: null })).json();
        type Schema = { properties?: Record<string, unknown> };
        const answers = Object.values(doc.components.schemas as Record<string, Schema>).filter(
          (schema) => schema.properties?.stateSince !== undefined,
        );
        expect(answers.length).toBeGreaterThan(0);
        for (const answer of answers)
          expect(answer.properties?.intervalSec).toMatchObject({
            type: ['integer', 'null'],
            description: expect.stringContaining('null for push monitors'),
          });
        const { monitors } = (await (await h.call('GET', '/api/v1/monitors')).json()) as {
          monitors: { key: string; intervalSec: number | null }[];
        };
        expect(monitors.find((m) => m.key === 'lobby')?.intervalSec).toBe(60);
      });

      it('runs a monitor on a relay named by key', async () => {
        const res = await h.call('POST', '/api/v1/monitors', {
          body: {
            key: 'inner',
            name: 'Inner',
            type: 'tcp',
            runOn: 'relay',
            relay: 'basement',
            config: { host: '10.0.0.2', port: 22 },
          },
        });
        expect(res.status).toBe(201);
        expect(await res.json()).toMatchObject({ runOn: 'relay', relayKey: 'basement' });
      });

      it('says which field was meant when a body names the relay as its answers do (relayId)', async () => {
        const relay = {
          key: 'inner2',
          name: 'Inner',
          type: 'tcp',
          runOn: 'relay',
          config: { host: '10.0.0.2', port: 22 },
        };
        const res = await h.call('POST', '/api/v1/monitors', { body: { ...relay, relayId: 'basement' } });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([
          { path: 'body', message: 'unknown field relayId; did you mean relay?' },
        ]);
        const patched = await h.call('PATCH', `/api/v1/monitors/${h.a.monitors.lobby?.id}`, {
          body: { relayKey: 'basement' },
        });
        expect((await patched.json()).errors).toEqual([
          { path: 'body', message: 'unknown field relayKey; did you mean relay?' },
        ]);
        // Other unknown fields keep zod's own words.
        const other = await h.call('POST', '/api/v1/monitors', {
          body: { ...relay, relay: 'basement', colour: 'red' },
        });
        expect((await other.json()).errors).toEqual([{ path: 'body', message: 'Unrecognized key: "colour"' }]);
      });

      it.each([
        [{ key: 'x1', name: 'X', type: 'tcp', config: { host: 'a.example', port: 70000 } }, 'body.config.port'],
        [{ key: 'x2', name: 'X', type: 'nope', config: {} }, 'body.type'],
        [{ key: 'Bad Key', name: 'X', type: 'tcp', config: { host: 'a.example', port: 1 } }, 'body.key'],
        [{ key: 'x3', name: 'X', type: 'tcp', runOn: 'relay', config: { host: 'a.example', port: 1 } }, 'body.relay'],
        [
          {
            key: 'x4',
            name: 'X',
            type: 'tcp',
            runOn: 'relay',
            relay: 'cellar',
            config: { host: 'a.example', port: 1 },
          },
          'body.relay',
        ],
        [
          { key: 'x5', name: 'X', type: 'gamedig', runOn: 'edge', config: { game: 'csgo', host: 'a.example' } },
          'body.runOn',
        ],
        [{ key: 'x6', name: 'X', type: 'heartbeat', pushToken: 'wdp_aaaaaaaaaaaaaaaaaaaaaaaa' }, 'body'],
      ])('answers 400 naming the wrong field (%#)', async (body, path) => {
        const res = await h.call('POST', '/api/v1/monitors', { body });
        expect(res.status).toBe(400);
        const problem = await res.json();
        expect(problem).toMatchObject({
          type: 'https://warden.dev/problems/validation',
          status: 400,
          title: 'Invalid request',
        });
        expect(problem.errors.map((e: { path: string }) => e.path)).toContain(path);
      });

      it('answers 409 when the key is taken', async () => {
        const res = await h.call('POST', '/api/v1/monitors', {
          body: { key: 'lobby', name: 'Again', type: 'tcp', config: { host: 'a.example', port: 1 } },
        });
        expect(res.status).toBe(409);
        expect((await res.json()).detail).toContain('"lobby"');
      });
    });
  });
}
