// `warden backup` as a process, against the database of a running server that keeps storing heartbeats, and the copy
// restored into an empty data dir and read back through the store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreSqliteDatabase } from '../../src/store/dialects/sqlite/files.js';
import { openStore } from '../../src/store/open-store.js';
import { runCli, type ServerProcess, startServer } from '../cli-process.js';
import { scaled } from '../time-scale.js';

const TOKEN = 'wdp_e2eBackupHeartbeatToken01234';
const PUSHERS = 4;

describe('warden backup while the server writes', () => {
  const work = mkdtempSync(join(tmpdir(), 'warden-backup-e2e-'));
  const env = {
    WARDEN_DATA_DIR: join(work, 'data'),
    DATABASE_URL: '',
    WARDEN_PUSH_RATE: '100000',
    WARDEN_PUSH_BURST: '100000',
  };
  let server: ServerProcess;

  beforeAll(async () => {
    writeFileSync(
      join(work, 'warden.yaml'),
      `organization: { key: acme, name: Acme }\nmonitors: [{ key: cron, name: Cron, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 60 } }]\n`,
    );
    server = await startServer(['--config', join(work, 'warden.yaml')], env);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('copies a consistent database that holds every heartbeat answered before it started', {
    timeout: scaled(30_000),
  }, async () => {
    let accepted = 0;
    let stop = false;
    const push = async () => {
      while (!stop) if ((await fetch(`${server.url}/api/push/${TOKEN}?status=up`)).status === 200) accepted++;
    };
    const pushers = Array.from({ length: PUSHERS }, push);
    while (accepted < 50) await new Promise((resolve) => setTimeout(resolve, 10));

    const before = accepted;
    const backup = await runCli(['backup', join(work, 'copy.db')], env);
    const after = accepted;
    stop = true;
    await Promise.all(pushers);

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/integrity ok, 1 organization, 1 monitor, \d+ checks/);
    expect(after).toBeGreaterThan(before);

    const restored = await restoreSqliteDatabase(join(work, 'copy.db'), join(work, 'restored'));
    const store = await openStore({ dataDir: join(work, 'restored') });
    try {
      const organization = await store.organizations.findByKey('acme');
      const monitor = await store.monitors.findByKey(organization?.id as string, 'cron');
      const checks = await store.checks.list(monitor?.id as string, {
        from: 0,
        to: Number.MAX_SAFE_INTEGER,
        limit: 100_000,
      });
      expect(checks.length).toBe(restored.checks);
      // Answered means committed: all of those are in the copy; at most the requests in flight besides.
      expect(checks.length).toBeGreaterThanOrEqual(before);
      expect(checks.length).toBeLessThanOrEqual(after + PUSHERS);
    } finally {
      await store.close();
    }
  });
});
