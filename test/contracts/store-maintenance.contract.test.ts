// Store contract, maintenance windows: orders, filters and whole replacements.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/check.js';
import type { Maintenance, MaintenanceSpec } from '../../src/domain/incident.js';
import type { Store } from '../../src/store/index.js';
import {
  addMonitor,
  addPage,
  addPageWithTwoComponents,
  describeStore,
  maintenanceSpec,
  NOW,
  ORG,
  sorted,
} from './store-fixtures.js';

/** Inserts maintenance window `mnt_<key>` on a page. */
async function addWindow(
  store: Store,
  pageId: string,
  key: string,
  overrides: Partial<MaintenanceSpec> = {},
): Promise<string> {
  const id = `mnt_${key}`;
  await store.maintenance.insert({ ...maintenanceSpec(key, overrides), id, pageId, managedBy: 'api' }, NOW);
  return id;
}

describeStore('maintenance', (store) => {
  let pageId = '';
  beforeEach(async () => {
    pageId = await addPageWithTwoComponents(store());
  });

  it('stores a new window exactly as written', async () => {
    const spec = maintenanceSpec('upgrade', {
      title: 'Upgrade to 1.21',
      description: 'About an hour',
      componentIds: ['cmp_a', 'cmp_b'],
    });
    await store().maintenance.insert({ ...spec, id: 'mnt_a', pageId, managedBy: 'config' }, NOW);
    const window = await store().maintenance.findById('mnt_a');
    expect({ ...window, componentIds: sorted(window?.componentIds) }).toEqual({
      ...spec,
      id: 'mnt_a',
      pageId,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW,
    } satisfies Maintenance);
  });

  it("lists a page's windows soonest first, and counts them", async () => {
    const other = await addPage(store(), 'other');
    await addWindow(store(), pageId, 'later', { startsAt: NOW + 2 * DAY_MS, endsAt: NOW + 3 * DAY_MS });
    await addWindow(store(), pageId, 'past', { startsAt: NOW - 2 * DAY_MS, endsAt: NOW - DAY_MS });
    await addWindow(store(), pageId, 'soon', { startsAt: NOW + HOUR_MS, endsAt: NOW + 2 * HOUR_MS });
    await addWindow(store(), other, 'elsewhere');
    expect((await store().maintenance.list(pageId)).map((m) => m.key)).toEqual(['past', 'soon', 'later']);
    expect(await store().maintenance.count(pageId)).toBe(3);
  });

  it('keeps the windows ending at or after the given time', async () => {
    await addWindow(store(), pageId, 'past', { startsAt: NOW - 2 * DAY_MS, endsAt: NOW - DAY_MS });
    await addWindow(store(), pageId, 'ending-now', { startsAt: NOW - HOUR_MS, endsAt: NOW });
    await addWindow(store(), pageId, 'running', {
      startsAt: NOW - HOUR_MS,
      endsAt: NOW + HOUR_MS,
      componentIds: ['cmp_a'],
    });
    expect((await store().maintenance.list(pageId, NOW)).map((m) => [m.key, m.componentIds])).toEqual([
      ['ending-now', []],
      ['running', ['cmp_a']],
    ]);
  });

  it('finds a window by key within its page only', async () => {
    const other = await addPage(store(), 'other');
    await addWindow(store(), pageId, 'upgrade');
    expect(await store().maintenance.findByKey(pageId, 'upgrade')).toMatchObject({ id: 'mnt_upgrade' });
    expect(await store().maintenance.findByKey(other, 'upgrade')).toBeUndefined();
    expect(await store().maintenance.findById('mnt_unknown')).toBeUndefined();
  });

  it('replaces a window with its components and owner', async () => {
    await addWindow(store(), pageId, 'upgrade', { componentIds: ['cmp_a'], description: 'Short' });
    const spec = maintenanceSpec('upgrade', {
      title: 'Moved',
      description: null,
      startsAt: NOW + 3 * DAY_MS,
      endsAt: NOW + 4 * DAY_MS,
      componentIds: ['cmp_b'],
    });
    await store().maintenance.update('mnt_upgrade', spec, 'config', NOW + 1000);
    expect(await store().maintenance.findById('mnt_upgrade')).toEqual({
      ...spec,
      id: 'mnt_upgrade',
      pageId,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW + 1000,
    });
  });

  it('keeps the monitors a window covers, replaces them whole, and drops a deleted monitor', async () => {
    await addMonitor(store(), 'db');
    await addMonitor(store(), 'cache');
    await addWindow(store(), pageId, 'upgrade', { monitorIds: ['mon_db', 'mon_cache'] });
    expect(sorted((await store().maintenance.findById('mnt_upgrade'))?.monitorIds)).toEqual(['mon_cache', 'mon_db']);
    await store().maintenance.update('mnt_upgrade', maintenanceSpec('upgrade', { monitorIds: ['mon_db'] }), 'api', NOW);
    expect((await store().maintenance.list(pageId)).map((m) => m.monitorIds)).toEqual([['mon_db']]);
    await store().monitors.delete('mon_db');
    expect((await store().maintenance.listOfOrganization(ORG.id, NOW)).map((m) => m.monitorIds)).toEqual([[]]);
  });

  it('deletes a window', async () => {
    await addWindow(store(), pageId, 'upgrade', { componentIds: ['cmp_a'] });
    await addWindow(store(), pageId, 'kept');
    await store().maintenance.delete('mnt_upgrade');
    expect(await store().maintenance.findById('mnt_upgrade')).toBeUndefined();
    expect((await store().maintenance.list(pageId)).map((m) => m.id)).toEqual(['mnt_kept']);
  });
});
