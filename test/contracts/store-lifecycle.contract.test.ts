// Store contract, the store as a whole: transactions across repositories, unique violations, migrations, ping and close.

import { expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { LATEST_MIGRATION, MIGRATION_NAMES } from '../../src/store/migrate.js';
import {
  addComponent,
  addMonitor,
  addOrganization,
  addPage,
  addRelay,
  check,
  describeStore,
  incidentSpec,
  monitorSpec,
  NOW,
  ORG,
  pageSpec,
  rejectionOf,
  stateRow,
  updateIds,
} from './store-fixtures.js';

/** Writes through every repository: what a rolled back transaction must leave no trace of. */
async function writeEverywhere(store: Store): Promise<void> {
  await addOrganization(store);
  await store.apiKeys.insert({
    id: 'key_a',
    organizationId: ORG.id,
    name: 'CI',
    prefix: 'wdk_a',
    scope: 'read',
    createdAt: NOW,
    hash: 'hash_a',
  });
  const relayId = await addRelay(store, 'a');
  await addMonitor(store, 'a', { runOn: 'relay', relayId });
  await store.checks.write([check('mon_a', NOW)], [stateRow('mon_a', { state: 'down' })]);
  const pageId = await addPage(store, 'status');
  await addComponent(store, pageId, 'a', { monitorId: 'mon_a' });
  await store.incidents.insert(
    { ...incidentSpec('outage', { componentIds: ['cmp_a'] }), id: 'inc_a', pageId, managedBy: 'api' },
    updateIds(),
    NOW,
  );
}

/** What writeEverywhere leaves behind, as the store reads it. */
async function traces(store: Store) {
  return {
    organization: await store.organizations.findByKey(ORG.key),
    apiKey: await store.apiKeys.findActiveByHash('hash_a'),
    relay: await store.relays.findById('rly_a'),
    monitor: await store.monitors.findById('mon_a'),
    checks: await store.checks.list('mon_a', { from: 0, to: NOW + 1, limit: 10 }),
    buckets: await store.checks.bucketCounts('hour', ['mon_a'], 0, NOW + 1),
    page: await store.pages.findBySlug('status'),
    component: await store.components.findById('cmp_a'),
    incident: await store.incidents.findById('inc_a'),
  };
}

const NOTHING = {
  organization: undefined,
  apiKey: undefined,
  relay: undefined,
  monitor: undefined,
  checks: [],
  buckets: [],
  page: undefined,
  component: undefined,
  incident: undefined,
};

describeStore('the store', (store, dialect) => {
  it('names its dialect, and a location without credentials', () => {
    expect(store().dialect).toBe(dialect.name);
    expect(store().location).not.toMatch(/\/\/[^/]*@/);
    expect(store().inTransaction).toBe(false);
  });

  it('answers a ping', async () => {
    await expect(store().ping()).resolves.toBeUndefined();
  });

  it('migrates an empty database once; migrating again changes nothing', async () => {
    const empty = await dialect.open({ migrate: false });
    try {
      expect(await empty.store.migrate()).toEqual({ applied: [...MIGRATION_NAMES], current: LATEST_MIGRATION });
      expect(await empty.store.migrate()).toEqual({ applied: [], current: LATEST_MIGRATION });
      await empty.store.ping();
    } finally {
      await empty.cleanup();
    }
    expect(await store().migrate()).toEqual({ applied: [], current: LATEST_MIGRATION });
  });

  it('stops answering once closed', async () => {
    await store().close();
    await expect(store().ping()).rejects.toThrow();
  });

  it('commits the work of a transaction and returns its result', async () => {
    const result = await store().transaction(async (t) => {
      expect(t.inTransaction).toBe(true);
      await writeEverywhere(t);
      return 'done';
    });
    expect(result).toBe('done');
    const after = await traces(store());
    expect(after.monitor).toMatchObject({ state: 'down', relayId: 'rly_a' });
    expect(
      Object.entries(after).filter(([, value]) => value === undefined || (Array.isArray(value) && value.length === 0)),
    ).toEqual([]);
  });

  it('sees its own writes inside the transaction', async () => {
    await store().transaction(async (t) => {
      await writeEverywhere(t);
      expect((await traces(t)).incident).toMatchObject({ componentIds: ['cmp_a'] });
    });
  });

  it("rolls back every repository's writes when the work throws, and rethrows", async () => {
    const failure = new Error('changed our mind');
    const work = store().transaction(async (t) => {
      await writeEverywhere(t);
      throw failure;
    });
    await expect(work).rejects.toBe(failure);
    expect(await traces(store())).toEqual(NOTHING);
  });

  it('joins the running transaction when asked for one inside it', async () => {
    const work = store().transaction(async (t) => {
      const inner = await t.transaction(async (u) => {
        expect(u.inTransaction).toBe(true);
        await writeEverywhere(u);
        return 'inner';
      });
      expect(inner).toBe('inner');
      expect((await traces(t)).monitor).toMatchObject({ id: 'mon_a' });
      throw new Error('outer failed');
    });
    await expect(work).rejects.toThrow('outer failed');
    expect(await traces(store())).toEqual(NOTHING);
  });

  it('tells a duplicate key from other failed writes', async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    const duplicateId = await rejectionOf(
      store().monitors.insert(
        { ...monitorSpec('b'), id: 'mon_a', organizationId: ORG.id, managedBy: 'api', pushToken: null },
        NOW,
      ),
    );
    expect(store().isUniqueViolation(duplicateId)).toBe(true);
    const missingOrganization = await rejectionOf(addMonitor(store(), 'c', { organizationId: 'org_missing' }));
    expect(store().isUniqueViolation(missingOrganization)).toBe(false);
    const badPolicy = await rejectionOf(
      store().pages.insert(
        {
          ...pageSpec('p', { aiPolicy: 'maybe' as 'allow' }),
          id: 'pg_p',
          organizationId: ORG.id,
          passwordHash: null,
          managedBy: 'api',
        },
        NOW,
      ),
    );
    expect(store().isUniqueViolation(badPolicy)).toBe(false);
    for (const other of [
      new Error('duplicate key'),
      undefined,
      null,
      'SQLITE_CONSTRAINT_UNIQUE',
      { code: 'ECONNREFUSED' },
    ])
      expect(store().isUniqueViolation(other)).toBe(false);
  });
});
