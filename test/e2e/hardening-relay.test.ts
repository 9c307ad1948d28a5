// A relay batch is judged result by result, as docs/relay.md promises: a result nested thousands deep, of the wrong
// shape, for a monitor not the relay's, or carrying a NUL (which PostgreSQL refuses) does not cost the batch its valid
// results, which are stored durably before the answer. A real server (startWarden) on each storage dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/domain/json-depth.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const RELAY = 'wdr_hardeningRelayToken012345678';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab, token: ${RELAY} }]
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, runOn: relay, relay: lab, config: { host: 10.0.0.5 } }
  - { key: edge, name: Edge, type: tcp, enabled: false, config: { host: 127.0.0.1, port: 1 } }
`;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`relay batches judged result by result (${dialect.name})`, () => {
    let s: SeededWarden;
    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
    });
    afterAll(async () => {
      await s?.close();
    });

    const submit = (text: string) =>
      fetch(`${s.url}/api/relay/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RELAY}`, 'content-type': 'application/json' },
        body: text,
      });
    const start = Date.now() - 60_000;
    /** The results stored, by the second they were checked at (each sent result has its own). */
    const stored = async () => {
      const checks = await s.opened.store.checks.list(s.monitors.lobby?.id as string, {
        from: 0,
        to: Number.MAX_SAFE_INTEGER,
        limit: 100,
      });
      return checks.map((c) => (c.checkedAt - start) / 1000).sort((a, b) => a - b);
    };

    it('stores the valid results of a batch and rejects the bad ones alone, deep ones included, with their reasons', async () => {
      const lobby = s.monitors.lobby?.id as string;
      const result = (second: number, extra = '') =>
        `{"id":"r${second}","monitorId":"${lobby}","ok":true,"checkedAt":${start + second * 1000}${extra}}`;
      const batch = [
        result(1),
        // 200,000 levels: JSON.stringify (the data size check) overflowed the stack here, and the whole batch was a 500.
        result(2, `,"data":{"x":${nested(200_000)}}`),
        `{"id":"shape","monitorId":"${lobby}","ok":"yes"}`,
        `{"id":"notmine","monitorId":"${s.monitors.edge?.id}","ok":true}`,
        nested(JSON_MAX_DEPTH + 1),
        result(6, ',"message":"a\\u0000b","error":null'),
        result(7, `,"data":{"x":${nested(JSON_MAX_DEPTH - 2)}}`),
        result(8),
      ];
      const res = await submit(`{"results":[${batch.join(',')}]}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = await res.json();
      expect(answer).toMatchObject({ accepted: 4, duplicates: 0 });
      const reasons = Object.fromEntries(
        answer.rejected.map((r: { index: number; reason: string }) => [r.index, r.reason]),
      );
      expect(Object.keys(reasons).map(Number)).toEqual([1, 2, 3, 4]);
      expect(reasons[1]).toBe(`(root): nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects`);
      expect(reasons[2]).toBe('ok: expected true or false');
      expect(reasons[3]).toMatch(/is not assigned to this relay$/);
      expect(reasons[4]).toBe(`(root): nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects`);
      // Answered once committed: another connection reads them at once.
      expect(await stored()).toEqual([1, 6, 7, 8]);
      const checks = await s.opened.store.checks.list(lobby, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 100 });
      expect(checks.find((c) => c.checkedAt === start + 6000)?.message).toBe('a\uFFFDb');
      // Sent again, the stored ones are duplicates and the bad ones are refused the same way.
      const again = await (await submit(`{"results":[${batch.join(',')}]}`)).json();
      expect(again).toMatchObject({ accepted: 4, duplicates: 4 });
      expect(again.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4]);
    });

    it('answers 400 naming body when the batch nests too deeply outside its results, and stores nothing', async () => {
      const before = await stored();
      const res = await submit(`{"results":[],"extra":${nested(100_000)}}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).errors).toEqual([
        { path: 'body', message: `nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects` },
      ]);
      const notAnObject = await submit(nested(100_000));
      expect(notAnObject.status).toBe(400);
      expect((await notAnObject.json()).errors[0].path).toBe('body');
      expect(await stored()).toEqual(before);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    });
  });
