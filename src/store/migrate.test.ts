// The migrations on each dialect's own connection: every table from an empty database once, a rolling upgrade, foreign
// keys, 64-bit times, schemas apart (migrate-upgrades.test.ts: what upgrades from an older release do to its rows).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationConnections, migrationDialects } from '../../test/migration-dialects.js';
import { LATEST_MIGRATION, MIGRATION_NAMES } from './migrate.js';

const TABLES = [
  'account_tokens',
  'alerts',
  'api_keys',
  'audit_log',
  'change_counter',
  'channel_recipients',
  'check_buckets_daily',
  'check_buckets_hourly',
  'check_buckets_location_hourly',
  'check_journal',
  'checks',
  'cluster_instances',
  'cluster_leases',
  'components',
  'email_links',
  'escalation_policies',
  'game_changes',
  'incident_components',
  'incident_drafts',
  'incident_updates',
  'incidents',
  'invitations',
  'maintenance',
  'maintenance_components',
  'maintenance_monitors',
  'memberships',
  'monitor_state_changes',
  'monitors',
  'notification_channels',
  'notification_deliveries',
  'organizations',
  'page_assets',
  'page_boards',
  'page_subscribers',
  'pages',
  'relays',
  'server_secrets',
  'user_identities',
  'user_recovery_codes',
  'user_sessions',
  'users',
];

for (const dialect of migrationDialects) {
  describe.skipIf(!dialect.available)(`migrations on ${dialect.name}`, () => {
    const { open, migrate } = migrationConnections(dialect);

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
