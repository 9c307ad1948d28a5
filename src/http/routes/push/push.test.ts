import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES, OVERSIZED_PUSH_BODY } from '../../../../test/fakes/bad-pushes.js';
import { type DialectCase, dialects } from '../../../../test/store-dialects.js';
import type { Monitor } from '../../../domain/monitor.js';
import { hashSecret } from '../../../domain/tokens.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { PUSH_TOKEN_CACHE } from '../../../services/push/token-cache.js';

const TOKEN = 'wdp_backupJobToken0123456789';
const PAUSED_TOKEN = 'wdp_pausedMonitorToken0123456';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backup, name: Backup, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 120 } }
  - { key: paused, name: Paused, type: heartbeat, enabled: false, pushToken: ${PAUSED_TOKEN} }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`push heartbeats on ${dialect.name}`, () => {
    let h: Harness;
    let backup: Monitor;

    beforeEach(async () => {
      h = await startHarness(dialect, CONFIG);
      backup = h.monitors.backup as Monitor;
    });
    afterEach(() => h.close());

    const checks = () => h.opened.store.checks.list(backup.id, { from: 0, to: h.clock.now() + 1, limit: 100 });
    const post = (
      body: string,
      headers: Record<string, string> = { 'content-type': 'application/json' },
      token = TOKEN,
    ) => h.request(`/api/push/${token}`, { method: 'POST', body, headers });

    it('GET records an up ping and answers once it is stored', async () => {
      const res = await h.request(`/api/push/${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ ok: true, monitor: backup.id, state: 'up', checkedAt: h.clock.now() });
      const [check] = await checks();
      expect(check).toMatchObject({
        ok: true,
        source: 'push',
        checkedAt: h.clock.now(),
        latencyMs: null,
        message: null,
      });
    });

    it('GET with status=down, msg and latency records a failure with its reason', async () => {
      await h.request(`/api/push/${TOKEN}?status=up&msg=ok&latency=8`);
      h.clock.advance(1000);
      const res = await h.request(`/api/push/${TOKEN}?status=down&msg=${encodeURIComponent('disk full')}&latency=12`);
      expect(await res.json()).toMatchObject({ state: 'down' });
      const [latest, first] = await checks();
      expect(latest).toMatchObject({ ok: false, error: 'disk full', latencyMs: 12 });
      expect(first).toMatchObject({ ok: true, message: 'ok', latencyMs: 8 });
    });

    it('GET accepts an empty latency and msg (as in copied uptime-tool URLs)', async () => {
      const res = await h.request(`/api/push/${TOKEN}?status=up&msg=&latency=`);
      expect(res.status).toBe(200);
      expect((await checks())[0]).toMatchObject({ ok: true, latencyMs: null, message: null });
    });

    it('POST keeps players, maxPlayers, tps and extra properties in the data the status page reads', async () => {
      const res = await post(
        JSON.stringify({
          status: 'up',
          msg: 'lobby',
          latency: 3,
          players: 12,
          maxPlayers: 100,
          tps: 19.8,
          version: '1.21.4',
          world: { seed: 42 },
        }),
      );
      expect(res.status).toBe(200);
      expect((await checks())[0]).toMatchObject({
        ok: true,
        message: 'lobby',
        latencyMs: 3,
        data: { players: 12, maxPlayers: 100, tps: 19.8, version: '1.21.4', world: { seed: 42 } },
      });
      const monitor = await h.opened.store.monitors.findById(backup.id);
      expect(monitor?.lastResult?.data).toMatchObject({ players: 12, maxPlayers: 100, tps: 19.8 });
      expect(monitor?.state).toBe('up');
    });

    it('POST with an empty body, or JSON under another content type, is read as JSON', async () => {
      expect((await post('', {})).status).toBe(200);
      expect(
        (await post('{"status":"down","msg":"crashed"}', { 'content-type': 'application/x-www-form-urlencoded' }))
          .status,
      ).toBe(200);
      expect((await checks()).map((c) => c.ok)).toEqual([false, true]);
    });

    it('POST takes null as "not given"', async () => {
      expect((await post(JSON.stringify({ status: null, players: null, msg: null }))).status).toBe(200);
      expect((await checks())[0]).toMatchObject({ ok: true, data: null });
    });

    it('answers 404 for an unknown, malformed, revoked or paused token', async () => {
      const cases = ['wdp_unknownToken0123456789ab', 'not-a-token', 'wdr_relayTokenNotAPushToken01', PAUSED_TOKEN];
      for (const token of cases) {
        const res = await h.request(`/api/push/${token}`);
        expect(res.status, token).toBe(404);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const body = await res.json();
        expect(body.type).toBe('https://warden.dev/problems/not-found');
        if (token.length > 16) expect(body.detail).not.toContain(token.slice(12));
      }
      await h.opened.store.monitors.setPushToken(
        backup.id,
        { hash: hashSecret('wdp_theNewTokenIssuedNow0001'), prefix: 'wdp_theNewTo' },
        h.clock.now(),
      );
      expect((await h.request(`/api/push/${TOKEN}`)).status).toBe(404);
      expect((await h.request('/api/push/wdp_theNewTokenIssuedNow0001')).status).toBe(200);
    });

    it('remembers a token for at most its TTL, and forgets it at once when monitors change in this process', async () => {
      const rotate = (token: string) =>
        h.opened.store.monitors.setPushToken(
          backup.id,
          { hash: hashSecret(token), prefix: token.slice(0, 12) },
          h.clock.now(),
        );
      expect((await h.request(`/api/push/${TOKEN}`)).status).toBe(200);
      // Revoked by another process, with no event nor change counter here: the remembered token works until it expires
      // (in a server, the change counter's poll clears it within WARDEN_CHANGE_POLL_MS: hardening-changes.test.ts).
      await rotate('wdp_rotatedByTheCliTokenXYZ01');
      expect((await h.request(`/api/push/${TOKEN}`)).status).toBe(200);
      h.clock.advance(PUSH_TOKEN_CACHE.ttlMs);
      expect((await h.request(`/api/push/${TOKEN}`)).status).toBe(404);
      // Revoked through this process, which announces it: at once.
      expect((await h.request('/api/push/wdp_rotatedByTheCliTokenXYZ01')).status).toBe(200);
      await rotate('wdp_rotatedByTheApiTokenXYZ01');
      h.bus.publish({ type: 'monitors.changed', at: h.clock.now(), organizationId: backup.organizationId });
      expect((await h.request('/api/push/wdp_rotatedByTheCliTokenXYZ01')).status).toBe(404);
      expect((await h.request('/api/push/wdp_rotatedByTheApiTokenXYZ01')).status).toBe(200);
    });

    it.each(BAD_PUSH_QUERIES)('GET ?%s is answered 400 naming %s, and nothing is stored', async (query, path) => {
      const res = await h.request(`/api/push/${TOKEN}?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = await res.json();
      expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
      expect(await checks()).toHaveLength(0);
    });

    it.each(BAD_PUSH_BODIES)(
      'POST with %s is answered 400 naming it, and nothing is stored',
      async (_what, text, path) => {
        const res = await post(text);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const body = await res.json();
        expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
        expect(await checks()).toHaveLength(0);
      },
    );

    it('a body over the cap is answered 413, refused before it is read when Content-Length announces it', async () => {
      const declared = await post('{}', {
        'content-type': 'application/json',
        'content-length': String(PUSH_LIMITS.bodyBytes + 1),
      });
      expect(declared.status).toBe(413);
      const sent = await post(OVERSIZED_PUSH_BODY);
      expect(sent.status).toBe(413);
      expect(sent.headers.get('content-type')).toBe('application/problem+json');
      expect(await sent.json()).toMatchObject({
        type: 'https://warden.dev/problems/body-too-large',
        detail: `The body must be at most ${PUSH_LIMITS.bodyBytes} bytes.`,
      });
      expect(await checks()).toHaveLength(0);
    });

    it('answers CORS preflights for browser pings', async () => {
      const res = await h.request(`/api/push/${TOKEN}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(
        (await h.request(`/api/push/${TOKEN}`, { headers: { origin: 'https://example.com' } })).headers.get(
          'access-control-allow-origin',
        ),
      ).toBe('*');
    });
  });
}

describe('the push endpoints in the OpenAPI document', () => {
  it('describes both operations with the token as a path parameter, the body, and problem+json errors', async () => {
    const h = await startHarness(dialects[0] as DialectCase, 'organization: { name: A }');
    const doc = await (await h.request('/api/openapi.json')).json();
    await h.close();
    const path = doc.paths['/api/push/{token}'];
    expect(path.get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:token', 'query:status', 'query:msg', 'query:latency']),
    );
    const body = path.post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['status', 'msg', 'latency', 'players', 'maxPlayers', 'tps']);
    for (const op of [path.get, path.post]) {
      expect(op.responses['400'].content['application/problem+json']).toBeDefined();
      expect(op.responses['404'].content['application/problem+json']).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema.properties.state).toBeDefined();
    }
  });
});
