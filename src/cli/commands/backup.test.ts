import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed } from '../../../test/seed.js';
import { openStore } from '../../store/open-store.js';
import { backupCommand, restoreCommand } from './backup.js';

describe('warden backup and warden restore', () => {
  let dir: string;
  let stdout = '';
  const saved = { ...process.env };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-backup-cli-'));
    const store = await openStore({ dataDir: join(dir, 'data') });
    await store.migrate();
    await seed(
      store,
      'organization: { key: acme, name: Acme }\nmonitors: [{ key: web, name: Web, type: tcp, config: { host: example.com, port: 80 } }]',
    );
    await store.close();
    Object.assign(process.env, {
      WARDEN_DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      DATABASE_SCHEMA: '',
      LOG_LEVEL: 'silent',
    });
    stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (
    command: { parseAsync(args: string[], options: { from: 'user' }): Promise<unknown> },
    ...args: string[]
  ) => command.parseAsync(args, { from: 'user' });

  it('backs up, reports what the verified copy holds, and restores it into an empty data dir', async () => {
    const file = join(dir, 'nightly.db');
    await run(backupCommand(), file);
    expect(stdout).toMatch(
      new RegExp(
        `^backed up .* to ${file}: [\\d.]+ KiB, integrity ok, 1 organization, 1 monitor, 0 checks \\(schema \\d{4}-`,
      ),
    );

    process.env.WARDEN_DATA_DIR = join(dir, 'new-data');
    stdout = '';
    await run(restoreCommand(), file);
    expect(stdout).toMatch(
      /^restored .*nightly\.db to .*new-data\/warden\.db: [\d.]+ KiB, integrity ok, 1 organization, 1 monitor, 0 checks, schema up to date\n$/,
    );
    const store = await openStore({ dataDir: join(dir, 'new-data') });
    const [organization] = await store.organizations.list();
    expect((await store.monitors.list(organization?.id as string)).map((m) => m.key)).toEqual(['web']);
    await store.close();

    // A second restore finds the database the first one made.
    await expect(run(restoreCommand(), file)).rejects.toThrow(
      /new-data\/warden\.db exists: restore into an empty data dir/,
    );
  });

  it('refuses to overwrite a file unless told to with --force', async () => {
    const file = join(dir, 'nightly.db');
    writeFileSync(file, 'yesterday');
    await expect(run(backupCommand(), file)).rejects.toThrow(/nightly\.db exists: give --force to replace it/);
    expect(readFileSync(file, 'utf8')).toBe('yesterday');
    await run(backupCommand(), file, '--force');
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('refuses to restore a file that is not a Warden database', async () => {
    process.env.WARDEN_DATA_DIR = join(dir, 'new-data');
    writeFileSync(join(dir, 'notes.db'), 'not a database');
    await expect(run(restoreCommand(), join(dir, 'notes.db'))).rejects.toThrow(/notes\.db is not a SQLite database/);
    expect(existsSync(join(dir, 'new-data', 'warden.db'))).toBe(false);
  });

  it('with PostgreSQL, says that backups are pg_dump’s and restores pg_restore’s, and gives the commands', async () => {
    Object.assign(process.env, { DATABASE_URL: 'postgres://warden@db.invalid/warden', DATABASE_SCHEMA: 'tenant' });
    await expect(run(backupCommand(), join(dir, 'x.dump'))).rejects.toThrow(
      /pg_dump's job[\s\S]*pg_dump --format=custom --schema=tenant --file=FILE "\$DATABASE_URL"/,
    );
    await expect(run(restoreCommand(), join(dir, 'x.dump'))).rejects.toThrow(
      /pg_restore --no-owner --schema=tenant --dbname="\$DATABASE_URL" FILE/,
    );
    expect(existsSync(join(dir, 'x.dump'))).toBe(false);
  });
});
