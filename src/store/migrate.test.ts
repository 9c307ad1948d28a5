// The migrations on each dialect's own connection: every table from an empty database once, foreign keys, 64-bit times.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_URL, postgresAvailable } from '../../test/store-dialects.js';
import type { DialectConnection } from './dialects/connection.js';
import { connectPostgres } from './dialects/postgres/connect.js';
import { connectSqlite } from './dialects/sqlite/connect.js';
import { LATEST_MIGRATION, MIGRATION_NAMES, MIGRATIONS, migrateToLatest } from './migrate.js';
import * as accountProofs from './migrations/0012-account-proofs.js';
import * as pausedAt from './migrations/0013-paused-at.js';

const TABLES = [
  'account_tokens',
  'api_keys',
  'audit_log',
  'change_counter',
  'channel_recipients',
  'check_buckets_daily',
  'check_buckets_hourly',
  'check_journal',
  'checks',
  'cluster_instances',
  'cluster_leases',
  'components',
  'email_links',
  'incident_components',
  'incident_updates',
  'incidents',
  'invitations',
  'maintenance',
  'maintenance_components',
  'memberships',
  'monitor_state_changes',
  'monitors',
  'notification_channels',
  'notification_deliveries',
  'organizations',
  'page_assets',
  'page_subscribers',
  'pages',
  'relays',
  'server_secrets',
  'user_identities',
  'user_recovery_codes',
  'user_sessions',
  'users',
];

interface OpenedConnection {
  connection: DialectConnection;
  close(): Promise<void>;
}

/** A fresh, empty database per dialect: a temp dir for SQLite, a schema of its own on PostgreSQL (dropped on close). */
const connections = [
  {
    name: 'sqlite',
    available: true,
    async open(): Promise<OpenedConnection> {
      const dir = mkdtempSync(join(tmpdir(), 'warden-migrate-'));
      const connection = connectSqlite(dir, 'normal');
      return {
        connection,
        async close() {
          await connection.db.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    async open(): Promise<OpenedConnection> {
      const schema = `m_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const connection = await connectPostgres(POSTGRES_URL, schema);
      return {
        connection,
        async close() {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(connection.db);
          await connection.db.destroy();
        },
      };
    },
  },
];

for (const dialect of connections) {
  describe.skipIf(!dialect.available)(`migrations on ${dialect.name}`, () => {
    const opened: OpenedConnection[] = [];
    const open = async () => {
      const one = await dialect.open();
      opened.push(one);
      return one.connection;
    };
    const migrate = async (connection: DialectConnection) =>
      migrateToLatest(connection.db, await connection.migrationSchema());
    afterEach(async () => {
      for (const one of opened.splice(0)) await one.close();
    });

    it('creates every table from an empty database, once', async () => {
      const connection = await open();
      const first = await migrate(connection);
      expect(first.applied).toEqual([...MIGRATION_NAMES]);
      // Only this test's schema: other tests' schemas share the PostgreSQL database.
      const schema = await connection.migrationSchema();
      const tables = (await connection.db.introspection.getTables())
        .filter((t) => t.schema === schema)
        .map((t) => t.name);
      expect(tables.filter((name) => !name.startsWith('warden_')).sort()).toEqual(TABLES);
      const second = await migrate(connection);
      expect(second.applied).toEqual([]);
      expect(second.current).toBe(LATEST_MIGRATION);
    });

    it('lets a process of the previous version start on a database the next version migrated (a rolling upgrade)', async () => {
      const connection = await open();
      await migrate(connection);
      const schema = await connection.migrationSchema();
      const table = sql.table(schema ? `${schema}.warden_migrations` : 'warden_migrations');
      // What the next release adds: a migration this version has never heard of.
      await sql`insert into ${table} (name, timestamp) values ('9999-next-release', '2027-01-01T00:00:00.000Z')`.execute(
        connection.db,
      );
      expect(await migrate(connection)).toEqual({ applied: [], current: '9999-next-release' });
      // One it should have run is missing too: it is more than one release behind, and says so.
      await sql`delete from ${table} where name = ${LATEST_MIGRATION}`.execute(connection.db);
      await expect(migrate(connection)).rejects.toThrow(/does not know \(9999-next-release\) and lacks/);
    });

    it('counts the accounts of before as verified since their creation, and their sessions as never proven', async () => {
      const connection = await open();
      await migrate(connection);
      const { db } = connection;
      // Back to before 0012, with an account and a session of then.
      await pausedAt.down(db);
      await accountProofs.down(db);
      const schema = await connection.migrationSchema();
      await sql`delete from ${sql.table(schema ? `${schema}.warden_migrations` : 'warden_migrations')} where name >= '0012-account-proofs'`.execute(
        db,
      );
      await sql`insert into users (id, email, name, password_hash, totp_secret, totp_enabled_at, totp_last_step, created_at, updated_at)
        values ('usr_old', 'old@example.com', 'Old', null, null, null, null, 1700000000000, 1700000000500)`.execute(db);
      await sql`insert into user_sessions (id, user_id, hash, created_at, last_seen_at, expires_at, user_agent, address)
        values ('ses_old', 'usr_old', 'h', 1, 1, 2, null, null)`.execute(db);
      expect((await migrate(connection)).applied).toEqual(['0012-account-proofs', '0013-paused-at']);
      expect(
        await db.selectFrom('users').select(['email_verified_at', 'updated_at']).executeTakeFirstOrThrow(),
      ).toEqual({ email_verified_at: 1700000000000, updated_at: 1700000000500 });
      expect((await db.selectFrom('user_sessions').select('proven_at').executeTakeFirstOrThrow()).proven_at).toBeNull();
    });

    it('enforces foreign keys and cascades deletes', async () => {
      const connection = await open();
      await migrate(connection);
      const { db } = connection;
      const page = {
        id: 'pg_1',
        slug: 's',
        title: 't',
        description: null,
        custom_domain: null,
        password_hash: null,
        ai_policy: 'allow' as const,
        managed_by: 'api' as const,
        created_at: 1,
        updated_at: 1,
      };
      await expect(
        db
          .insertInto('pages')
          .values({ ...page, organization_id: 'org_missing' })
          .execute(),
      ).rejects.toThrow();
      await db
        .insertInto('organizations')
        .values({ id: 'org_1', key: 'o', name: 'O', created_at: 1, updated_at: 1 })
        .execute();
      await db
        .insertInto('pages')
        .values({ ...page, organization_id: 'org_1' })
        .execute();
      await db.deleteFrom('organizations').where('id', '=', 'org_1').execute();
      const left = await db.selectFrom('pages').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
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

    it('stores epoch milliseconds beyond 2^31 as numbers', async () => {
      const connection = await open();
      await migrate(connection);
      const now = 1_795_000_000_123;
      await connection.db
        .insertInto('organizations')
        .values({ id: 'org_1', key: 'o', name: 'O', created_at: now, updated_at: now })
        .execute();
      const row = await connection.db.selectFrom('organizations').selectAll().executeTakeFirstOrThrow();
      expect(row.created_at).toBe(now);
      expect(typeof row.created_at).toBe('number');
    });

    // SQLite has no schemas: a database is a file of its own.
    if (dialect.name === 'postgres')
      it('keeps the migrations of each schema apart', async () => {
        const first = await open();
        const second = await open();
        expect((await migrate(first)).applied).toEqual([...MIGRATION_NAMES]);
        expect((await migrate(second)).applied).toEqual([...MIGRATION_NAMES]);
        await second.db
          .insertInto('organizations')
          .values({ id: 'org_1', key: 'o', name: 'O', created_at: 1, updated_at: 1 })
          .execute();
        expect(await first.db.selectFrom('organizations').selectAll().execute()).toEqual([]);
      });
  });
}
