// Cluster mode as composed by main.ts: the coordinator's view in /readyz, `warden cluster status` over the same
// database, and the single-process answers left as they were.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../test/cli-process.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { composeWarden, type WardenParts } from '../compose.js';
import { createLogger } from '../logger.js';
import { clusterStatus } from '../services/cluster/status.js';

const postgres = dialects.find((d) => d.name === 'postgres');

describe.skipIf(!postgres?.available)('cluster mode, composed (PostgreSQL)', () => {
  let opened: OpenedStore;
  let parts: WardenParts[];
  const clock = { now: () => Date.now() };
  const compose = (instanceId?: string) =>
    composeWarden({
      store: opened.store,
      clock,
      logger: createLogger('silent'),
      baseUrl: () => 'http://warden.test',
      ...(instanceId ? { cluster: { instanceId, info: () => ({ version: '9.9.9' }) } } : {}),
    });
  const request = async (warden: WardenParts, path: string) =>
    warden.app.request(`http://warden.test${path}`, { headers: { host: 'warden.test' } });

  beforeEach(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    parts = [compose('warden-a'), compose('warden-b')];
    // Rounds until the shards are shared (16 move per round): what the coordinators' timers do every few seconds.
    for (let round = 0; round < 10; round++) for (const warden of parts) await warden.coordinator?.round();
  });
  afterEach(async () => {
    for (const warden of parts) await warden.coordinator?.stop();
    await opened.cleanup();
  });

  it('shows the instance, its peers and its leases in /readyz', async () => {
    const answer = await request(parts[0]!, '/readyz');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      status: string;
      cluster: {
        instance: string;
        peers: { id: string }[];
        shards: number;
        leases: { name: string; expiresAt: number }[];
      };
    };
    expect(body.status).toBe('ready');
    expect(body.cluster.instance).toBe('warden-a');
    expect(body.cluster.peers.map((p) => p.id)).toEqual(['warden-a', 'warden-b']);
    expect(body.cluster.shards).toBe(128);
    expect(body.cluster.leases.filter((l) => l.name.startsWith('shard:'))).toHaveLength(128);
    expect(body.cluster.leases.every((l) => l.expiresAt > Date.now())).toBe(true);
  });

  it('answers /readyz as before in one process: no cluster', async () => {
    const single = compose();
    expect(single.coordinator).toBeNull();
    expect(await (await request(single, '/readyz')).json()).toEqual({ status: 'ready', database: 'postgres' });
  });

  it('tells the instances, their shards and the singletons’ holders (`warden cluster status`)', async () => {
    const status = await clusterStatus({ ...parts[0]!.context });
    expect(status.instances.map((i) => [i.id, i.live, i.shards, i.info.version])).toEqual([
      ['warden-a', true, 128, '9.9.9'],
      ['warden-b', true, 128, '9.9.9'],
    ]);
    expect(status.unheldShards).toBe(0);
    expect(status.singletons.map((s) => s.name)).toEqual([
      'watchdog',
      'retention',
      'domain-recheck',
      'maintenance-notices',
      'notify-reminders',
    ]);
    expect(new Set(status.singletons.map((s) => s.holder))).toEqual(new Set(['warden-a', 'warden-b']));
    const cli = await runCli(['cluster', 'status'], opened.env);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^INSTANCE\s+STATE\s+SHARDS\s+SINGLETONS/);
    expect(cli.stdout).toMatch(/warden-a\s+live\s+128\s/);
    expect(cli.stdout).toMatch(/warden-b\s+live\s+128\s/);
    expect(cli.stdout).toMatch(/watchdog\s+warden-[ab]\s+\d{4}-/);
    expect(cli.stdout).toContain('shards not held: 0 of 256');
    // Stopped: handed back at once, gone from the table.
    await parts[1]!.coordinator?.stop();
    const after = await clusterStatus({ ...parts[0]!.context });
    expect(after.instances.map((i) => i.id)).toEqual(['warden-a']);
    expect(after.unheldShards).toBe(128);
  });
});
