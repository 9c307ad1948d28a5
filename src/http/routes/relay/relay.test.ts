import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { seed } from '../../../../test/seed.js';
import { type DialectCase, dialects } from '../../../../test/store-dialects.js';
import { countStoredChecks } from '../../../../test/stored-checks.js';
import type { Monitor } from '../../../domain/monitor.js';
import { RELAY_LIMITS } from '../../../relay/protocol.js';
import type { Store } from '../../../store/index.js';

const LAB = 'wdr_labRelayToken0123456789abc';
const ATTIC = 'wdr_atticRelayToken0123456789a';
const OTHER = 'wdr_otherOrgRelayToken01234567';
const CONFIG = `
organization: { key: acme, name: Acme }
relays:
  - { key: lab, name: Home lab, token: ${LAB} }
  - { key: attic, name: Attic, token: ${ATTIC} }
monitors:
  - { key: mc, name: Lobby, type: minecraft-java, runOn: relay, relay: lab, intervalSec: 30, config: { host: 10.0.0.5, port: 25565 } }
  - { key: console, name: Console, type: rcon, runOn: relay, relay: lab, config: { host: 10.0.0.6, password: "rcon-secret" } }
  - { key: off, name: Off, type: tcp, runOn: relay, relay: lab, enabled: false, config: { host: 10.0.0.7, port: 1 } }
  - { key: attic-web, name: Attic web, type: tcp, runOn: relay, relay: attic, config: { host: 10.0.1.1, port: 80 } }
  - { key: edge, name: Edge, type: tcp, config: { host: 127.0.0.1, port: 1 } }
`;
const OTHER_CONFIG = `
organization: { key: other, name: Other }
relays: [{ key: lab, name: Their lab, token: ${OTHER} }]
monitors:
  - { key: mc, name: Their lobby, type: tcp, runOn: relay, relay: lab, config: { host: 10.9.0.1, port: 1 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`relay protocol on ${dialect.name}`, () => {
    let h: Harness;
    let store: Store;
    let m: Record<string, Monitor>;
    let theirs: Monitor;
    let now: number;

    beforeEach(async () => {
      h = await startHarness(dialect, CONFIG);
      store = h.opened.store;
      now = h.clock.now();
      m = h.monitors;
      theirs = (await seed(store, OTHER_CONFIG, now)).monitors.mc as Monitor;
    });
    afterEach(() => h.close());

    const auth = (token = LAB) => ({ authorization: `Bearer ${token}` });
    const submit = (body: unknown, token = LAB) =>
      h.request('/api/relay/results', {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const countChecks = () => countStoredChecks(store);
    const checksOf = (monitorId: string) => store.checks.list(monitorId, { from: 0, to: now + 1, limit: 10 });

    it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or wrong-kind token', async () => {
      const missing = await h.request('/api/relay/config');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="warden"');
      expect(missing.headers.get('content-type')).toBe('application/problem+json');
      for (const header of [
        'Bearer wdr_notARealRelayToken000000',
        'Bearer nonsense',
        'Basic dXNlcjpwYXNz',
        'Bearer wdn_anApiKeyIsNotARelayToken0',
      ]) {
        const res = await h.request('/api/relay/config', { headers: { authorization: header } });
        expect(res.status, header).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="warden"/);
      }
      const results = await h.request('/api/relay/results', { method: 'POST', body: '{"results":[]}' });
      expect(results.status).toBe(401);
    });

    it('serves the enabled monitors assigned to the relay, secrets included, with an ETag and 304', async () => {
      const res = await h.request('/api/relay/config', { headers: auth() });
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag') as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const body = await res.json();
      expect(body.relay).toMatchObject({ key: 'lab', name: 'Home lab' });
      const ids = [m.mc, m.console].map((x) => (x as Monitor).id).sort();
      expect(body.monitors.map((x: { id: string }) => x.id)).toEqual(ids);
      const consoleMonitor = body.monitors.find((x: { key: string }) => x.key === 'console');
      expect(consoleMonitor).toMatchObject({ type: 'rcon', intervalSec: 60, timeoutMs: 10_000 });
      expect(consoleMonitor.config.password).toBe('rcon-secret');
      expect(body.limits).toEqual({
        resultsPerBatch: RELAY_LIMITS.resultsPerBatch,
        batchBytes: RELAY_LIMITS.batchBytes,
        configPollSec: 60,
      });

      const again = await h.request('/api/relay/config', { headers: { ...auth(), 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');

      const mc = m.mc as Monitor;
      await store.monitors.updateSpec(mc.id, { ...mc, intervalSec: 45 }, 'config', now);
      const changed = await h.request('/api/relay/config', { headers: { ...auth(), 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);

      const attic = await (await h.request('/api/relay/config', { headers: auth(ATTIC) })).json();
      expect(attic.monitors.map((x: { key: string }) => x.key)).toEqual(['attic-web']);
    });

    it('records when the relay was last heard from', async () => {
      await h.request('/api/relay/config', { headers: auth() });
      const lab = await store.relays.findByKey((m.mc as Monitor).organizationId, 'lab');
      expect(lab?.lastSeenAt).toBe(now);
    });

    it('stores good results through the ingest and rejects the others one by one, with their reasons', async () => {
      const mc = (m.mc as Monitor).id;
      const res = await submit({
        results: [
          {
            id: 'a1',
            monitorId: mc,
            ok: true,
            latencyMs: 12,
            message: '3/20 players',
            data: { players: 3, maxPlayers: 20 },
            checkedAt: now - 5000,
          },
          { id: 'a2', monitorId: mc, ok: 'yes' },
          { id: 'a3', monitorId: (m['attic-web'] as Monitor).id, ok: true },
          { id: 'a4', monitorId: theirs.id, ok: true },
          { id: 'a5', monitorId: (m.edge as Monitor).id, ok: true },
          { id: 'a6', monitorId: (m.off as Monitor).id, ok: true },
          { id: 'a7', monitorId: mc, ok: true, checkedAt: now + 10 * 60_000 },
          { id: 'a8', monitorId: mc, ok: true, checkedAt: now - RELAY_LIMITS.maxAgeMs - 1 },
          { id: 'a9', monitorId: mc, ok: false, error: 'timed out after 10 s', latencyMs: -1 },
          'not a result',
          { id: 'b1', monitorId: (m.console as Monitor).id, ok: false, error: 'authentication failed' },
          { monitorId: mc, ok: true, degraded: true, checkedAt: now - 1000 },
        ],
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.accepted).toBe(3);
      expect(body.duplicates).toBe(0);
      const reasons = Object.fromEntries(
        body.rejected.map((r: { index: number; reason: string }) => [r.index, r.reason]),
      );
      expect(Object.keys(reasons).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(reasons[1]).toBe('ok: expected true or false');
      for (const i of [2, 3, 4, 5]) expect(reasons[i]).toMatch(/is not assigned to this relay$/);
      expect(reasons[6]).toMatch(/^checkedAt: .* is in the future/);
      expect(reasons[7]).toMatch(/^checkedAt: .* is older than the check retention/);
      expect(reasons[8]).toMatch(/^latencyMs: expected an integer from 0/);
      expect(reasons[9]).toMatch(/^\(root\): /);

      expect(await countChecks()).toBe(3);
      const [latest, first] = await checksOf(mc);
      expect(first).toMatchObject({
        checkedAt: now - 5000,
        ok: true,
        latencyMs: 12,
        source: 'relay',
        data: { players: 3, maxPlayers: 20 },
      });
      expect(latest).toMatchObject({ checkedAt: now - 1000 });
      expect(await store.monitors.findById(mc)).toMatchObject({ state: 'degraded', lastCheckAt: now - 1000 });
      expect(await checksOf(theirs.id)).toHaveLength(0);
    });

    it('stores a resubmitted result once and counts it as accepted', async () => {
      const mc = (m.mc as Monitor).id;
      const batch = {
        results: [1, 2, 3].map((i) => ({ id: `r${i}`, monitorId: mc, ok: true, checkedAt: now - 10_000 + i })),
      };
      expect(await (await submit(batch)).json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
      expect(await (await submit(batch)).json()).toEqual({ accepted: 3, duplicates: 3, rejected: [] });
      expect(await countChecks()).toBe(3);
    });

    it('answers 413 for a batch over the count or byte limit, and 400 for a body without results', async () => {
      const mc = (m.mc as Monitor).id;
      const many = {
        results: Array.from({ length: RELAY_LIMITS.resultsPerBatch + 1 }, () => ({ monitorId: mc, ok: true })),
      };
      const tooMany = await submit(many);
      expect(tooMany.status).toBe(413);
      expect(tooMany.headers.get('content-type')).toBe('application/problem+json');
      const big = { results: [{ monitorId: mc, ok: true, message: 'x'.repeat(RELAY_LIMITS.batchBytes) }] };
      expect((await submit(big)).status).toBe(413);
      const notJson = await submit('{"results": [');
      expect(notJson.status).toBe(400);
      expect((await notJson.json()).errors[0].path).toBe('body');
      const noResults = await submit({ result: [] });
      expect((await noResults.json()).errors[0].path).toBe('body.results');
      expect(await countChecks()).toBe(0);
    });
  });
}

describe('the relay endpoints in the OpenAPI document', () => {
  it('describes config and results with the bearer scheme', async () => {
    const h = await startHarness(dialects[0] as DialectCase, 'organization: { name: A }');
    const doc = await (await h.request('/api/openapi.json')).json();
    await h.close();
    expect(doc.components.securitySchemes.relayToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const config = doc.paths['/api/relay/config'].get;
    expect(config.security).toEqual([{ relayToken: [] }]);
    expect(Object.keys(config.responses)).toEqual(['200', '304', '401']);
    const results = doc.paths['/api/relay/results'].post;
    expect(results.requestBody.content['application/json'].schema.properties.results.maxItems).toBe(
      RELAY_LIMITS.resultsPerBatch,
    );
    expect(Object.keys(results.responses)).toEqual(['200', '400', '401', '413', '503']);
  });
});
