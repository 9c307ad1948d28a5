// Upgrades from an older release, on each dialect's own connection: the rows a migration finds are carried over as the
// release that made them meant (0012's account proofs, 0010's organizations made by the file).
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationConnections, migrationDialects } from '../../test/migration-dialects.js';
import type { DialectConnection } from './dialects/connection.js';
import { MIGRATION_NAMES, MIGRATIONS } from './migrate.js';
import type { AnyDb } from './migrations/schema-parts.js';

/** Undoes every migration from `first` on, newest first: the schema as the release before `first` left it. */
async function undoFrom(db: AnyDb, first: string): Promise<void> {
  for (const name of [...MIGRATION_NAMES].reverse().filter((n) => n >= first)) await MIGRATIONS[name]?.down?.(db);
}

for (const dialect of migrationDialects) {
  describe.skipIf(!dialect.available)(`migrations on ${dialect.name}`, () => {
    const { open, migrate } = migrationConnections(dialect);

    it('counts the accounts of before as verified since their creation, and their sessions as never proven', async () => {
      const connection = await open();
      await migrate(connection);
      const { db } = connection;
      // Back to before 0012, with an account and a session of then.
      await undoFrom(db, '0012-account-proofs');
      const schema = await connection.migrationSchema();
      await sql`delete from ${sql.table(schema ? `${schema}.warden_migrations` : 'warden_migrations')} where name >= '0012-account-proofs'`.execute(
        db,
      );
      await sql`insert into users (id, email, name, password_hash, totp_secret, totp_enabled_at, totp_last_step, created_at, updated_at)
        values ('usr_old', 'old@example.com', 'Old', null, null, null, null, 1700000000000, 1700000000500)`.execute(db);
      await sql`insert into user_sessions (id, user_id, hash, created_at, last_seen_at, expires_at, user_agent, address)
        values ('ses_old', 'usr_old', 'h', 1, 1, 2, null, null)`.execute(db);
      expect((await migrate(connection)).applied).toEqual(MIGRATION_NAMES.filter((n) => n >= '0012-account-proofs'));
      expect(
        await db.selectFrom('users').select(['email_verified_at', 'updated_at']).executeTakeFirstOrThrow(),
      ).toEqual({ email_verified_at: 1700000000000, updated_at: 1700000000500 });
      expect((await db.selectFrom('user_sessions').select('proven_at').executeTakeFirstOrThrow()).proven_at).toBeNull();
    });

    describe('an upgrade to 0010 (config apply adopts no organization it did not make)', () => {
      /** A database as the release before 0010 left it. */
      const before0010 = async () => {
        const connection = await open();
        const schema = await connection.migrationSchema();
        const migrator = new Migrator({
          db: connection.db,
          provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
          migrationTableName: 'warden_migrations',
          migrationLockTableName: 'warden_migrations_lock',
          ...(schema ? { migrationTableSchema: schema } : {}),
        });
        const { error } = await migrator.migrateTo('0009-check-journal');
        if (error) throw error;
        const { db } = connection;
        // What 0007 left: every organization `api`, whoever made it.
        for (const [id, key] of [
          ['org_file', 'default'],
          ['org_empty', 'empty'],
          ['org_signup', 'ada'],
        ] as const)
          await db
            .insertInto('organizations')
            .values({ id, key, name: key, created_at: 1, updated_at: 1, managed_by: 'api' })
            .execute();
        const page = {
          title: 't',
          description: null,
          custom_domain: null,
          password_hash: null,
          ai_policy: 'allow' as const,
          created_at: 1,
          updated_at: 1,
        };
        await db
          .insertInto('pages')
          .values({ ...page, id: 'pg_file', slug: 'status', organization_id: 'org_file', managed_by: 'config' })
          .execute();
        await db
          .insertInto('pages')
          .values({ ...page, id: 'pg_api', slug: 'ada', organization_id: 'org_signup', managed_by: 'api' })
          .execute();
        return connection;
      };
      const managers = async (connection: DialectConnection) =>
        Object.fromEntries(
          (await connection.db.selectFrom('organizations').select(['key', 'managed_by']).execute()).map((o) => [
            o.key,
            o.managed_by,
          ]),
        );

      it("marks the file's organizations, those holding what the file manages, and leaves a sign-up's alone", async () => {
        const connection = await before0010();
        await connection.db
          .insertInto('users')
          .values({ id: 'usr_ada', email: 'ada@example.com', name: 'Ada', created_at: 1, updated_at: 1 })
          .execute();
        await connection.db
          .insertInto('memberships')
          .values({ organization_id: 'org_signup', user_id: 'usr_ada', role: 'owner', created_at: 1 })
          .execute();
        expect((await migrate(connection)).applied).toEqual(
          MIGRATION_NAMES.filter((name) => name > '0009-check-journal'),
        );
        expect(await managers(connection)).toEqual({ default: 'config', empty: 'api', ada: 'api' });
      });

      it('marks every organization of a database without accounts: only the file made them', async () => {
        const connection = await before0010();
        await migrate(connection);
        expect(await managers(connection)).toEqual({ default: 'config', empty: 'config', ada: 'config' });
      });

      it('keeps the API keys made before it, made by nobody recorded', async () => {
        const connection = await before0010();
        await connection.db
          .insertInto('api_keys')
          .values({
            id: 'key_1',
            organization_id: 'org_file',
            name: 'CI',
            prefix: 'wdn_x',
            hash: 'h',
            scope: 'write',
            created_at: 1,
            last_used_at: null,
            revoked_at: null,
          })
          .execute();
        await migrate(connection);
        expect(await connection.db.selectFrom('api_keys').select(['id', 'created_by', 'revoked_at']).execute()).toEqual(
          [{ id: 'key_1', created_by: null, revoked_at: null }],
        );
      });
    });

    it('0035: on PostgreSQL checks and the journal stop referencing monitors, and reference them again once undone', async () => {
      const connection = await open();
      await migrate(connection);
      const { db } = connection;
      // Which of the two tables reference `monitors`, from each dialect's catalog.
      const referencing = async () => {
        const found: string[] = [];
        for (const table of ['check_journal', 'checks']) {
          const refs =
            dialect.name === 'postgres'
              ? (
                  await sql<{ n: number }>`select count(*)::int as n from pg_constraint
                    where conrelid = ${table}::regclass and contype = 'f' and confrelid = 'monitors'::regclass`.execute(
                    db,
                  )
                ).rows[0]?.n
              : (
                  await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${table})`.execute(db)
                ).rows.filter((r) => r.table === 'monitors').length;
          if (refs) found.push(table);
        }
        return found;
      };
      // SQLite keeps its references (inserted in-process, they cost little).
      expect(await referencing()).toEqual(dialect.name === 'postgres' ? [] : ['check_journal', 'checks']);
      await undoFrom(db, '0035-unreferenced-checks');
      expect(await referencing()).toEqual(['check_journal', 'checks']);
    });

    it('0036: on PostgreSQL checks drop the index of result ids alone, and get it back once undone', async () => {
      const connection = await open();
      await migrate(connection);
      const { db } = connection;
      const indexed = async () =>
        dialect.name === 'postgres'
          ? (
              await sql<{ n: number }>`select count(*)::int as n from pg_indexes
              where schemaname = current_schema() and indexname = 'checks_result'`.execute(db)
            ).rows[0]?.n === 1
          : (await sql<{ name: string }>`select name from pragma_index_list('checks')`.execute(db)).rows.some(
              (r) => r.name === 'checks_result',
            );
      // SQLite still looks relay results up by id alone.
      expect(await indexed()).toBe(dialect.name !== 'postgres');
      await undoFrom(db, '0036-result-lookup-by-monitor');
      expect(await indexed()).toBe(true);
    });

    // SQLite has no fill factor: the migration changes nothing there.
    if (dialect.name === 'postgres')
      it('0037: on PostgreSQL the bucket tables and every hourly partition keep half of each page free, until undone', async () => {
        const connection = await open();
        await migrate(connection);
        const { db } = connection;
        // The bucket tables of the current schema (the hourly partitions among them) and their storage parameters.
        const options = async () =>
          Object.fromEntries(
            (
              await sql<{ name: string; options: string[] | null }>`select c.relname as name, c.reloptions as options
              from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
              and c.relname like 'check_buckets%' order by c.relname`.execute(db)
            ).rows.map((r) => [r.name, r.options]),
          );
        const before = await options();
        // The daily and location tables, the hourly default partition and the months made at migration.
        expect(Object.keys(before)).toEqual(
          expect.arrayContaining([
            'check_buckets_daily',
            'check_buckets_location_hourly',
            'check_buckets_hourly_default',
          ]),
        );
        expect(Object.keys(before).some((name) => /^check_buckets_hourly_p\d{6}$/.test(name))).toBe(true);
        for (const found of Object.values(before)) expect(found).toEqual(['fillfactor=50']);
        await undoFrom(db, '0037-bucket-fill-factor');
        for (const found of Object.values(await options())) expect(found).toBeNull();
      });
  });
}
