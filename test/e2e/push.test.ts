// Heartbeats against a real server process (`node dist/cli/index.js serve`): accepted ones stored, bad ones refused with nothing stored.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import type { Store } from '../../src/store/index.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../fakes/bad-pushes.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const TOKEN = 'wdp_e2eHeartbeatTokenForCron0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 60 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`push heartbeats against a real server on ${dialect.name}`, () => {
    const work = mkdtempSync(join(tmpdir(), 'warden-push-e2e-'));
    const configFile = join(work, 'warden.yaml');
    let opened: OpenedStore;
    let server: ServerProcess;
    let store: Store;
    let monitorId: string;

    beforeAll(async () => {
      writeFileSync(configFile, CONFIG);
      opened = await dialect.open();
      store = opened.store;
      server = await startServer(['--config', configFile], opened.env);
      const org = await store.organizations.findByKey('acme');
      monitorId = (await store.monitors.findByKey(org?.id as string, 'lobby'))?.id as string;
    });
    afterAll(async () => {
      await server?.stop();
      await opened?.cleanup();
      rmSync(work, { recursive: true, force: true });
    });

    const pushUrl = (token = TOKEN) => `${server.url}/api/push/${token}`;
    const stored = async () =>
      (await store.checks.list(monitorId, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1000 })).length;

    it('stores a GET and a POST heartbeat before answering 200, with players for the status page', async () => {
      const get = await fetch(`${pushUrl()}?status=up&msg=ok&latency=4`);
      expect(get.status).toBe(200);
      expect(await get.json()).toMatchObject({ ok: true, monitor: monitorId, state: 'up' });
      // Answered after the commit: the check is already readable from another connection.
      expect(await stored()).toBe(1);

      const post = await fetch(pushUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ players: 31, maxPlayers: 64, tps: 19.9, map: 'de_dust2' }),
      });
      expect(post.status).toBe(200);
      expect(await stored()).toBe(2);
      const monitor = await store.monitors.findById(monitorId);
      expect(monitor?.state).toBe('up');
      expect(monitor?.lastResult?.data).toEqual({ players: 31, maxPlayers: 64, tps: 19.9, map: 'de_dust2' });
    });

    it('answers 404 to an unknown token', async () => {
      const res = await fetch(pushUrl('wdp_noMonitorHasThisToken0000000'));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    });

    it('answers every kind of bad input with 400 problem+json naming the field, and stores nothing', async () => {
      const before = await stored();
      for (const [query, path] of BAD_PUSH_QUERIES) {
        const res = await fetch(`${pushUrl()}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      for (const [what, body, path] of BAD_PUSH_BODIES) {
        const res = await fetch(pushUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(res.status, what).toBe(400);
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      expect(await stored()).toBe(before);
    });

    it('cuts off a chunked body (no Content-Length) once it passes 16 KiB', async () => {
      const before = await stored();
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          pushUrl(),
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('{"pad":"');
        for (let i = 0; i < 8; i++) req.write('x'.repeat(PUSH_LIMITS.bodyBytes / 4));
        req.end('"}');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({
        type: 'https://warden.dev/problems/body-too-large',
        detail: `The body must be at most ${PUSH_LIMITS.bodyBytes} bytes.`,
      });
      expect(await stored()).toBe(before);
    });
  });
}
