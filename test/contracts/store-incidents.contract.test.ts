// Store contract, incidents with their timeline: orders, filters and whole replacements (maintenance windows:
// store-maintenance.contract.test.ts).
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/check.js';
import type { Incident, IncidentSpec } from '../../src/domain/incident.js';
import type { Store } from '../../src/store/index.js';
import {
  addOrganization,
  addPage,
  addPageWithTwoComponents,
  describeStore,
  incidentSpec,
  NOW,
  ORG,
  OTHER_ORG,
  rejectionOf,
  sorted,
  updateIds,
} from './store-fixtures.js';

/** Inserts incident `inc_<key>` on a page, its updates named `upd_<key>_<n>`. */
async function addIncident(
  store: Store,
  pageId: string,
  key: string,
  overrides: Partial<IncidentSpec> = {},
): Promise<string> {
  const id = `inc_${key}`;
  await store.incidents.insert(
    { ...incidentSpec(key, overrides), id, pageId, managedBy: 'api' },
    updateIds(`upd_${key}`),
    NOW,
  );
  return id;
}

describeStore('incidents', (store) => {
  let pageId = '';
  beforeEach(async () => {
    pageId = await addPageWithTwoComponents(store());
  });

  it('stores a new incident with its components and its timeline, oldest update first', async () => {
    const updates = [
      { status: 'monitoring' as const, message: 'Fix deployed', at: NOW + 2000 },
      { status: 'investigating' as const, message: 'Players cannot join', at: NOW },
      { status: 'identified' as const, message: 'Proxy down', at: NOW + 1000 },
    ];
    const spec = incidentSpec('outage', {
      title: 'Lobby outage',
      status: 'monitoring',
      impact: 'major',
      startedAt: NOW,
      componentIds: ['cmp_a', 'cmp_b'],
      updates,
    });
    await store().incidents.insert({ ...spec, id: 'inc_a', pageId, managedBy: 'config' }, updateIds(), NOW + 3000);
    const incident = await store().incidents.findById('inc_a');
    expect({ ...incident, componentIds: sorted(incident?.componentIds) }).toEqual({
      id: 'inc_a',
      pageId,
      key: 'outage',
      title: 'Lobby outage',
      status: 'monitoring',
      impact: 'major',
      startedAt: NOW,
      resolvedAt: null,
      componentIds: ['cmp_a', 'cmp_b'],
      updates: [
        { id: 'upd_2', status: 'investigating', message: 'Players cannot join', at: NOW },
        { id: 'upd_3', status: 'identified', message: 'Proxy down', at: NOW + 1000 },
        { id: 'upd_1', status: 'monitoring', message: 'Fix deployed', at: NOW + 2000 },
      ],
      managedBy: 'config',
      createdAt: NOW + 3000,
      updatedAt: NOW + 3000,
    } satisfies Incident);
  });

  it("lists a page's incidents newest first, and counts them", async () => {
    const other = await addPage(store(), 'other');
    await addIncident(store(), pageId, 'old', {
      startedAt: NOW - 2 * DAY_MS,
      resolvedAt: NOW - DAY_MS,
      status: 'resolved',
    });
    await addIncident(store(), pageId, 'new', { startedAt: NOW });
    await addIncident(store(), pageId, 'mid', { startedAt: NOW - DAY_MS });
    await addIncident(store(), other, 'elsewhere');
    expect((await store().incidents.list(pageId)).map((i) => i.id)).toEqual(['inc_new', 'inc_mid', 'inc_old']);
    expect(await store().incidents.count(pageId)).toBe(3);
  });

  it('keeps open incidents and those resolved since the given time', async () => {
    await addIncident(store(), pageId, 'long-open', { startedAt: NOW - 10 * DAY_MS });
    await addIncident(store(), pageId, 'resolved-long-ago', {
      startedAt: NOW - 3 * DAY_MS,
      resolvedAt: NOW - 2 * DAY_MS,
    });
    await addIncident(store(), pageId, 'resolved-at-cutoff', { startedAt: NOW - 2 * DAY_MS, resolvedAt: NOW - DAY_MS });
    await addIncident(store(), pageId, 'resolved-lately', { startedAt: NOW - 2 * HOUR_MS, resolvedAt: NOW - HOUR_MS });
    expect((await store().incidents.list(pageId, { since: NOW - DAY_MS })).map((i) => i.key)).toEqual([
      'resolved-lately',
      'resolved-at-cutoff',
      'long-open',
    ]);
  });

  it('lists at most the limit, the newest', async () => {
    for (const day of [1, 2, 3, 4]) await addIncident(store(), pageId, `day-${day}`, { startedAt: NOW + day * DAY_MS });
    expect((await store().incidents.list(pageId, { limit: 2 })).map((i) => i.key)).toEqual(['day-4', 'day-3']);
  });

  it("lists the incidents of all an organization's pages newest first, open or resolved ones alone, at most the limit", async () => {
    const other = await addPage(store(), 'other');
    await addOrganization(store(), OTHER_ORG);
    const foreign = await addPage(store(), 'foreign', { organizationId: OTHER_ORG.id });
    await addIncident(store(), pageId, 'old', {
      startedAt: NOW - 3 * DAY_MS,
      resolvedAt: NOW - 2 * DAY_MS,
      status: 'resolved',
    });
    await addIncident(store(), other, 'open-there', { startedAt: NOW - DAY_MS });
    await addIncident(store(), pageId, 'open-here', {
      startedAt: NOW,
      updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
    });
    await addIncident(store(), foreign, 'not-ours', { startedAt: NOW + HOUR_MS });
    const keys = async (options: { resolved?: boolean; limit: number }) =>
      (await store().incidents.listOfOrganization(ORG.id, options)).map((i) => i.key);
    expect(await keys({ limit: 10 })).toEqual(['open-here', 'open-there', 'old']);
    expect(await keys({ resolved: false, limit: 10 })).toEqual(['open-here', 'open-there']);
    expect(await keys({ resolved: true, limit: 10 })).toEqual(['old']);
    expect(await keys({ limit: 1 })).toEqual(['open-here']);
    const [first] = await store().incidents.listOfOrganization(ORG.id, { limit: 1 });
    expect(first).toMatchObject({ pageId, updates: [{ status: 'investigating', message: 'Looking', at: NOW }] });
  });

  it('finds an incident by key within its page only', async () => {
    const other = await addPage(store(), 'other');
    await addIncident(store(), pageId, 'outage');
    expect(await store().incidents.findByKey(pageId, 'outage')).toMatchObject({ id: 'inc_outage' });
    expect(await store().incidents.findByKey(other, 'outage')).toBeUndefined();
    expect(await store().incidents.findById('inc_unknown')).toBeUndefined();
  });

  it('allows any number of incidents without a key, and refuses a key twice on one page as a unique violation', async () => {
    for (const id of ['inc_1', 'inc_2'])
      await store().incidents.insert({ ...incidentSpec(null), id, pageId, managedBy: 'api' }, updateIds(id), NOW);
    expect(await store().incidents.count(pageId)).toBe(2);
    await addIncident(store(), pageId, 'outage');
    const error = await rejectionOf(
      store().incidents.insert(
        { ...incidentSpec('outage'), id: 'inc_twin', pageId, managedBy: 'api' },
        updateIds('twin'),
        NOW,
      ),
    );
    expect(store().isUniqueViolation(error)).toBe(true);
  });

  it('replaces an incident with its timeline and components', async () => {
    await addIncident(store(), pageId, 'outage', {
      componentIds: ['cmp_a'],
      updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
    });
    const spec = incidentSpec('outage', {
      title: 'Renamed',
      status: 'resolved',
      impact: 'critical',
      startedAt: NOW - HOUR_MS,
      resolvedAt: NOW + HOUR_MS,
      componentIds: ['cmp_b'],
      updates: [{ status: 'resolved', message: 'Fixed', at: NOW + HOUR_MS }],
    });
    await store().incidents.replace('inc_outage', spec, 'config', updateIds('new'), NOW + 5000);
    const { updates, ...fields } = spec;
    expect(await store().incidents.findById('inc_outage')).toEqual({
      ...fields,
      id: 'inc_outage',
      pageId,
      updates: [{ id: 'new_1', ...updates[0]! }],
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW + 5000,
    });
  });

  it('changes only the fields named, leaving timeline and components', async () => {
    await addIncident(store(), pageId, 'outage', {
      componentIds: ['cmp_a'],
      updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
    });
    const before = (await store().incidents.findById('inc_outage')) as Incident;
    await store().incidents.updateFields('inc_outage', { status: 'resolved', resolvedAt: NOW + HOUR_MS }, NOW + 1000);
    expect(await store().incidents.findById('inc_outage')).toEqual({
      ...before,
      status: 'resolved',
      resolvedAt: NOW + HOUR_MS,
      updatedAt: NOW + 1000,
    });
    await store().incidents.updateFields('inc_outage', { resolvedAt: null, title: 'Reopened' }, NOW + 2000);
    expect(await store().incidents.findById('inc_outage')).toMatchObject({
      status: 'resolved',
      resolvedAt: null,
      title: 'Reopened',
      impact: before.impact,
    });
  });

  it('appends an update to the timeline', async () => {
    await addIncident(store(), pageId, 'outage', {
      updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
    });
    await store().incidents.addUpdate('inc_outage', {
      id: 'upd_added',
      status: 'identified',
      message: 'Found it',
      at: NOW + 1000,
    });
    expect((await store().incidents.findById('inc_outage'))?.updates).toEqual([
      { id: 'upd_outage_1', status: 'investigating', message: 'Looking', at: NOW },
      { id: 'upd_added', status: 'identified', message: 'Found it', at: NOW + 1000 },
    ]);
  });

  it('replaces the components an incident affects', async () => {
    await addIncident(store(), pageId, 'outage', { componentIds: ['cmp_a'] });
    await store().incidents.setComponents('inc_outage', ['cmp_a', 'cmp_b']);
    expect(sorted((await store().incidents.findById('inc_outage'))?.componentIds)).toEqual(['cmp_a', 'cmp_b']);
    await store().incidents.setComponents('inc_outage', []);
    expect((await store().incidents.findById('inc_outage'))?.componentIds).toEqual([]);
  });

  it('forgets a deleted component in the incidents that named it', async () => {
    await addIncident(store(), pageId, 'outage', { componentIds: ['cmp_a', 'cmp_b'] });
    await store().components.delete('cmp_a');
    expect((await store().incidents.findById('inc_outage'))?.componentIds).toEqual(['cmp_b']);
  });

  it('deletes an incident with its timeline', async () => {
    await addIncident(store(), pageId, 'outage', {
      updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
    });
    await addIncident(store(), pageId, 'kept');
    await store().incidents.delete('inc_outage');
    expect(await store().incidents.findById('inc_outage')).toBeUndefined();
    expect((await store().incidents.list(pageId)).map((i) => i.id)).toEqual(['inc_kept']);
  });
});
