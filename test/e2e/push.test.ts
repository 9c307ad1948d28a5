// Heartbeats against a real server process (`node dist/cli/index.js serve`): accepted ones stored, bad ones refused with nothing stored.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import { connectStore, type Store } from '../../src/store/connect.js';
import { findMonitorByKey } from '../../src/store/monitors.js';
import { findOrganizationByKey } from '../../src/store/organizations.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../fakes/bad-pushes.js';

const TOKEN = 'wdp_e2eHeartbeatTokenForCron0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 60 } }
`;

describe('push heartbeats against a real server', () => {
  const work = mkdtempSync(join(tmpdir(), 'warden-push-e2e-'));
  const dataDir = join(work, 'data');
  const configFile = join(work, 'warden.yaml');
  let server: ServerProcess;
  let store: Store;
  let monitorId: string;

  beforeAll(async () => {
    writeFileSync(configFile, CONFIG);
    server = await startServer(['--config', configFile], { WARDEN_DATA_DIR: dataDir, DATABASE_URL: '' });
    store = await connectStore({ dataDir });
    const org = await findOrganizationByKey(store.db, 'acme');
    monitorId = (await findMonitorByKey(store.db, org?.id as string, 'lobby'))?.id as string;
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const pushUrl = (token = TOKEN) => `${server.url}/api/push/${token}`;
  const stored = async () => (await store.db.selectFrom('checks').selectAll().where('monitor_id', '=', monitorId).execute()).length;

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
    const monitor = await store.db.selectFrom('monitors').select(['state', 'last_result']).where('id', '=', monitorId).executeTakeFirstOrThrow();
    expect(monitor.state).toBe('up');
    expect(JSON.parse(monitor.last_result as string).data).toEqual({ players: 31, maxPlayers: 64, tps: 19.9, map: 'de_dust2' });
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
      const req = request(pushUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('{"pad":"');
      for (let i = 0; i < 8; i++) req.write('x'.repeat(PUSH_LIMITS.bodyBytes / 4));
      req.end('"}');
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0]).toEqual({ path: 'body', message: `the body is larger than ${PUSH_LIMITS.bodyBytes} bytes` });
    expect(await stored()).toBe(before);
  });
});
