// A leaked push token cannot flood the database, and no push body breaks the server: a real server (startWarden) on
// each storage dialect. Per token: a burst of WARDEN_PUSH_BURST (20), then WARDEN_PUSH_RATE (10) a second; beyond it
// 429 with Retry-After and nothing stored. A body nested deeper than 400 levels is a 400 naming `body`, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/domain/json-depth.js';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const LEAKED = 'wdp_leakedHeartbeatToken0123456789';
const OTHER = 'wdp_otherHeartbeatToken01234567890';
const SLOW = 'wdp_slowHeartbeatToken012345678901';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: leaked, name: Leaked, type: heartbeat, pushToken: ${LEAKED} }
  - { key: other, name: Other, type: heartbeat, pushToken: ${OTHER} }
  - { key: slow, name: Slow, type: heartbeat, pushToken: ${SLOW} }
`;
/** As deep as 16 KiB allows, in an extra property: past what JSON.stringify survives (it used to measure extras so: a 500). */
const DEEPEST = `{"extra":${'['.repeat(PUSH_LIMITS.bodyBytes / 2 - 8)}${']'.repeat(PUSH_LIMITS.bodyBytes / 2 - 8)}}`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`push hardening against a real server (${dialect.name})`, () => {
    let s: SeededWarden;
    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
    });
    afterAll(async () => {
      await s?.close();
    });

    const stored = async (key: string) =>
      (
        await s.opened.store.checks.list(s.monitors[key]?.id as string, {
          from: 0,
          to: Number.MAX_SAFE_INTEGER,
          limit: 1000,
        })
      ).length;
    const ping = (token: string, base = s.url, i = 0) =>
      i % 2 === 0
        ? fetch(`${base}/api/push/${token}?msg=tick`)
        : fetch(`${base}/api/push/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"players":1}',
          });

    it('takes a burst of 20 on one token, then answers 429 with Retry-After, and stores only what it accepted', async () => {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => ping(LEAKED, s.url, i)));
      const seconds = (performance.now() - started) / 1000;
      const accepted = answers.filter((r) => r.status === 200).length;
      const refused = answers.filter((r) => r.status === 429);
      // 20 at once, plus what 10 a second refill while the 60 are answered.
      expect(accepted).toBeGreaterThanOrEqual(20);
      expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(seconds * 10));
      expect(refused.length).toBe(60 - accepted);
      for (const r of refused) {
        expect(r.headers.get('content-type')).toBe('application/problem+json');
        expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
      }
      const problem = await refused[0]?.json();
      expect(problem).toMatchObject({
        type: 'https://warden.dev/problems/rate-limited',
        status: 429,
        title: 'Too many requests',
      });
      expect(problem.detail).toContain('10 pings a second');
      expect(await stored('leaked')).toBe(accepted);
      // Another token is not affected.
      expect((await ping(OTHER)).status).toBe(200);
    });

    it('accepts the token again once Retry-After has passed', async () => {
      let refused = await ping(LEAKED);
      for (let i = 0; i < 100 && refused.status === 200; i++) refused = await ping(LEAKED);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after')) * 1000;
      const started = Date.now();
      let status = 429;
      while (status === 429 && Date.now() - started < wait + 2_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await ping(LEAKED)).status;
      }
      expect(status).toBe(200);
      expect(Date.now() - started).toBeLessThanOrEqual(wait + 2_000);
    });

    it('limits through the app as well (WARDEN_FAST_PATH=0), with WARDEN_PUSH_RATE and WARDEN_PUSH_BURST', async () => {
      const other = await s.another({ WARDEN_FAST_PATH: '0', WARDEN_PUSH_RATE: '0.5', WARDEN_PUSH_BURST: '3' });
      const base = other.url.replace('localhost', '127.0.0.1');
      const before = await stored('slow');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await ping(SLOW, base, i)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      const refused = await ping(SLOW, base);
      expect(refused.headers.get('retry-after')).toMatch(/^[12]$/);
      expect((await refused.json()).detail).toContain('0.5 pings a second (bursts of 3)');
      expect(await stored('slow')).toBe(before + 3);
    });

    it('stores a NUL in msg as U+FFFD, where PostgreSQL would have refused the commit (and every ping sharing it)', async () => {
      const down = await fetch(`${s.url}/api/push/${OTHER}`, {
        method: 'POST',
        body: '{"status":"down","msg":"disk\\u0000full"}',
      });
      expect(down.status).toBe(200);
      expect((await fetch(`${s.url}/api/push/${OTHER}?msg=a%00b`)).status).toBe(200);
      const [up, failed] = await s.opened.store.checks.list(s.monitors.other?.id as string, {
        from: 0,
        to: Number.MAX_SAFE_INTEGER,
        limit: 2,
      });
      expect(failed?.error).toBe('disk\uFFFDfull');
      expect(up?.message).toBe('a\uFFFDb');
    });

    it('answers a body nested deeper than 400 levels with 400 naming body, with or without a valid token, and stores nothing', async () => {
      const before = await stored('other');
      const tooDeep = `{"status":"up","extra":${'['.repeat(JSON_MAX_DEPTH)}${']'.repeat(JSON_MAX_DEPTH)}}`;
      for (const token of [OTHER, 'wdp_noMonitorHoldsThisToken00000', 'not-a-token'])
        for (const body of [DEEPEST, tooDeep]) {
          const res = await fetch(`${s.url}/api/push/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          expect(res.status, token).toBe(400);
          expect(res.headers.get('content-type')).toBe('application/problem+json');
          const problem = await res.json();
          expect(problem.errors).toEqual([
            { path: 'body', message: `nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects` },
          ]);
        }
      // One level less is fine, and kept in the check's data.
      const deepest = `{"extra":${'['.repeat(JSON_MAX_DEPTH - 1)}${']'.repeat(JSON_MAX_DEPTH - 1)}}`;
      expect((await fetch(`${s.url}/api/push/${OTHER}`, { method: 'POST', body: deepest })).status).toBe(200);
      expect(await stored('other')).toBe(before + 1);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    });
  });
