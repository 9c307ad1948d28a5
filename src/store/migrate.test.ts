import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { migrateToLatest } from './migrate.js';

const TABLES = [
  'api_keys',
  'check_buckets_daily',
  'check_buckets_hourly',
  'checks',
  'components',
  'incident_components',
  'incident_updates',
  'incidents',
  'maintenance',
  'maintenance_components',
  'monitors',
  'organizations',
  'pages',
  'relays',
];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`migrations on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    afterEach(async () => {
      await opened?.cleanup();
      opened = undefined;
    });

    it('creates every table from an empty database, once', async () => {
      opened = await dialect.open({ migrate: false });
      const first = await migrateToLatest(opened.store.db);
      expect(first.applied).toEqual(['0001-initial']);
      const tables = (await opened.store.db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('warden_'));
      expect(tables.sort()).toEqual(TABLES);
      const second = await migrateToLatest(opened.store.db);
      expect(second.applied).toEqual([]);
      expect(second.current).toBe('0001-initial');
    });

    it('enforces foreign keys and cascades deletes', async () => {
      opened = await dialect.open();
      const { db } = opened.store;
      await expect(
        db.insertInto('pages').values({
          id: 'pg_1',
          organization_id: 'org_missing',
          slug: 's',
          title: 't',
          description: null,
          custom_domain: null,
          password_hash: null,
          ai_policy: 'allow',
          managed_by: 'api',
          created_at: 1,
          updated_at: 1,
        }).execute(),
      ).rejects.toThrow();
      await db.insertInto('organizations').values({ id: 'org_1', key: 'o', name: 'O', created_at: 1, updated_at: 1 }).execute();
      await db.insertInto('pages').values({
        id: 'pg_1', organization_id: 'org_1', slug: 's', title: 't', description: null, custom_domain: null,
        password_hash: null, ai_policy: 'allow', managed_by: 'api', created_at: 1, updated_at: 1,
      }).execute();
      await db.deleteFrom('organizations').where('id', '=', 'org_1').execute();
      const left = await db.selectFrom('pages').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
    });

    it('stores epoch milliseconds beyond 2^31 as numbers', async () => {
      opened = await dialect.open();
      const { db } = opened.store;
      const now = 1_795_000_000_123;
      await db.insertInto('organizations').values({ id: 'org_1', key: 'o', name: 'O', created_at: now, updated_at: now }).execute();
      const row = await db.selectFrom('organizations').selectAll().executeTakeFirstOrThrow();
      expect(row.created_at).toBe(now);
      expect(typeof row.created_at).toBe('number');
    });
  });
}
