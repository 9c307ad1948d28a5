import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { dialects, POSTGRES_URL, postgresAvailable } from '../../test/store-dialects.js';
import { withServices } from './session.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

/** Points the CLI's settings at a database, as `warden` reads them from its environment. */
function environment(env: Record<string, string>): void {
  Object.assign(process.env, { LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_SCHEMA: '' }, env);
}

describe('withServices on SQLite', () => {
  it('refuses a data dir with no database, naming WARDEN_DATA_DIR, and creates neither file nor folder', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'warden-session-'));
    try {
      const dataDir = join(parent, 'dta');
      environment({ WARDEN_DATA_DIR: dataDir });
      let ran = false;
      const refused = withServices(async () => {
        ran = true;
      });
      await expect(refused).rejects.toThrow(
        `no Warden database at ${join(dataDir, 'warden.db')} (WARDEN_DATA_DIR: ${dataDir}); run \`warden serve\` or \`warden migrate\` first, or set WARDEN_DATA_DIR`,
      );
      expect(ran).toBe(false);
      expect(existsSync(dataDir)).toBe(false);

      // `migrate` and `config apply` may set one up; then every command finds it.
      await withServices(async () => {}, { create: true });
      expect(existsSync(join(dataDir, 'warden.db'))).toBe(true);
      expect(await withServices(async (ctx) => ctx.store.organizations.list())).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`withServices on ${dialect.name}`, () => {
    it('refuses a database that was never migrated, and opens it once it is', async () => {
      const opened = await dialect.open({ migrate: false });
      try {
        await opened.store.close();
        environment(opened.env);
        await expect(withServices(async () => {})).rejects.toThrow(
          dialect.name === 'sqlite'
            ? /^no Warden database at .*warden\.db \(WARDEN_DATA_DIR: .*\); run `warden serve` or `warden migrate` first, or set WARDEN_DATA_DIR$/
            : /^no Warden database at postgres:\/\/.* \(DATABASE_URL, DATABASE_SCHEMA: no Warden tables there\); run `warden serve` or `warden migrate` first, or set DATABASE_URL$/,
        );
        await withServices(async () => {}, { create: true });
        expect(await withServices(async (ctx) => ctx.store.organizations.list())).toEqual([]);
      } finally {
        await opened.cleanup();
      }
    });
  });
}

describe.skipIf(!postgresAvailable)('withServices on PostgreSQL', () => {
  it('refuses a schema that does not exist, and does not create it', async () => {
    const schema = `t_${process.pid}_missing_${Math.random().toString(36).slice(2, 8)}`;
    environment({ DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema });
    await expect(withServices(async () => {})).rejects.toThrow(
      /^no Warden database at postgres:\/\/.*\(schema t_.*\) \(DATABASE_URL, DATABASE_SCHEMA/,
    );
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      expect((await client.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });
});
