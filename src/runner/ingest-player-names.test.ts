// Who is online is never history: the names of a result stay on its monitor's latest result, out of every other table.
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import { SQLITE_FILE } from '../store/dialects/sqlite/connect.js';
import { createIngest, type Ingest } from './ingest.js';

const CONFIG = `
organization: { name: Test }
monitors:
  - { key: mc, name: MC, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 1 } }
`;
const NAME = 'Secret Sam';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`names of who is online on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ingest: Ingest;
    let events: WardenEvent[];
    let now: number;
    let mc: Monitor;

    beforeEach(async () => {
      opened = await dialect.open();
      const bus = createInProcessBus();
      events = [];
      for (const type of ['monitor.state', 'monitor.checked'] as const) bus.subscribe(type, (e) => events.push(e));
      now = Date.UTC(2026, 10, 20, 12, 0, 0);
      ingest = createIngest({ store: opened.store, bus, clock: { now: () => now }, logger: createLogger('silent') });
      mc = (await seed(opened.store, CONFIG, now)).monitors.mc as Monitor;
    });
    afterEach(async () => {
      await ingest.close();
      await opened.cleanup();
    });

    /** Up with names, down, then up again with others: checks, state changes and rollups all written. */
    async function playSession() {
      const names = [NAME, 'Ann\u0000\u202e', ...Array.from({ length: 150 }, (_, n) => `p${n}`)];
      const results = [
        { ok: true, data: { players: 152, playerNames: names } },
        { ok: false, error: 'connection refused' },
        { ok: true, message: '2/10 players', data: { players: 2, playerNames: [NAME, 'Bob'] } },
      ];
      for (const result of results) {
        now += 60_000;
        await ingest.recordMany([{ monitorId: mc.id, source: 'edge', ...result }]);
      }
    }

    it('keeps the latest names (cleaned, capped) on the monitor and none in its checks', async () => {
      await playSession();
      const monitor = await opened.store.monitors.findById(mc.id);
      expect(monitor?.lastResult?.data).toEqual({ players: 2, playerNames: [NAME, 'Bob'] });
      const checks = await opened.store.checks.list(mc.id, { from: 0, to: now + 1, limit: 10 });
      expect(checks).toHaveLength(3);
      for (const check of checks) expect(check.data ?? {}).not.toHaveProperty('playerNames');
      expect(checks.map((check) => check.data?.players ?? null)).toEqual([2, null, 152]);
      expect(JSON.stringify(events)).not.toContain(NAME);
    });

    it('caps what a relay or a push sends as it caps what a probe finds', async () => {
      now += 60_000;
      const many = Array.from({ length: 500 }, (_, n) => `<script>${n}</script>`);
      await ingest.recordMany([{ monitorId: mc.id, source: 'push', ok: true, data: { playerNames: many } }]);
      const names = (await opened.store.monitors.findById(mc.id))?.lastResult?.data?.playerNames as string[];
      expect(names).toHaveLength(100);
      expect(names[0]).toBe('<script>0</script>');
    });

    it('writes the names in no table but the monitor’s latest result', async () => {
      await playSession();
      await ingest.close();
      const monitor = await opened.store.monitors.findById(mc.id);
      expect(JSON.stringify(monitor?.lastResult)).toContain(NAME);
      expect(await tablesHolding(dialect.name, opened, NAME)).toEqual(['monitors']);
    });
  });
}

/** The tables with a row that holds `text` anywhere, read past the store (SQLite: its file, once the store is closed). */
async function tablesHolding(dialect: string, opened: OpenedStore, text: string): Promise<string[]> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: opened.env.DATABASE_URL });
    await client.connect();
    try {
      const schema = opened.env.DATABASE_SCHEMA as string;
      const { rows } = await client.query<{ name: string }>(
        `select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
        [schema],
      );
      const holding: string[] = [];
      for (const { name } of rows) {
        const found = await client.query(`select 1 from "${schema}"."${name}" t where t::text like $1 limit 1`, [
          `%${text}%`,
        ]);
        if (found.rowCount) holding.push(name);
      }
      return holding.sort();
    } finally {
      await client.end();
    }
  }
  await opened.store.close();
  const file = new SqliteDatabase(join(opened.env.WARDEN_DATA_DIR as string, SQLITE_FILE), { readonly: true });
  try {
    const tables = file
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .all() as { name: string }[];
    return tables
      .filter(({ name }) => JSON.stringify(file.prepare(`select * from "${name}"`).all()).includes(text))
      .map(({ name }) => name)
      .sort();
  } finally {
    file.close();
  }
}
