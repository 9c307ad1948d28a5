// Store contract, the components of status pages: page order, whole replacements, the monitors pages show.

import { beforeEach, expect, it } from 'vitest';
import type { Component } from '../../src/domain/page.js';
import {
  addComponent,
  addMonitor,
  addOrganization,
  addPage,
  componentSpec,
  describeStore,
  NOW,
  rejectionOf,
} from './store-fixtures.js';

describeStore('components', (store) => {
  let pageId = '';
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
    pageId = await addPage(store(), 'status');
  });

  it('stores a new component exactly as written', async () => {
    const spec = componentSpec('lobby', {
      name: 'Lobby',
      description: 'Where players land',
      group: 'Minecraft',
      order: 3,
      monitorId: 'mon_a',
      join: { address: 'play.example.com:25570', url: 'steam://connect/play.example.com:27015' },
    });
    await store().components.insert({ ...spec, id: 'cmp_a', pageId, managedBy: 'config' }, NOW);
    expect(await store().components.findById('cmp_a')).toEqual({
      ...spec,
      id: 'cmp_a',
      pageId,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW,
    } satisfies Component);
    expect(await store().components.findById('cmp_unknown')).toBeUndefined();
  });

  it("lists a page's components in page order", async () => {
    const other = await addPage(store(), 'other');
    await addComponent(store(), pageId, 'third', { order: 2 });
    await addComponent(store(), pageId, 'first', { order: 0 });
    await addComponent(store(), pageId, 'second', { order: 1 });
    await addComponent(store(), other, 'elsewhere', { order: 0 });
    expect((await store().components.list(pageId)).map((c) => c.key)).toEqual(['first', 'second', 'third']);
  });

  it('replaces a component’s spec and owner', async () => {
    await addComponent(store(), pageId, 'lobby', { monitorId: 'mon_a', group: 'Games' });
    const spec = componentSpec('lobby', {
      name: 'Hub',
      description: 'Renamed',
      group: null,
      order: 7,
      monitorId: null,
      join: 'hidden',
    });
    await store().components.update('cmp_lobby', spec, 'config', NOW + 1000);
    expect(await store().components.findById('cmp_lobby')).toEqual({
      ...spec,
      id: 'cmp_lobby',
      pageId,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW + 1000,
    });
  });

  it('deletes a component', async () => {
    await addComponent(store(), pageId, 'lobby');
    await addComponent(store(), pageId, 'hub');
    await store().components.delete('cmp_lobby');
    expect((await store().components.list(pageId)).map((c) => c.id)).toEqual(['cmp_hub']);
  });

  it('gives each page that shows a monitor once', async () => {
    const other = await addPage(store(), 'other');
    await addComponent(store(), pageId, 'lobby', { monitorId: 'mon_a' });
    await addComponent(store(), pageId, 'lobby-again', { monitorId: 'mon_a' });
    await addComponent(store(), other, 'hub', { monitorId: 'mon_a' });
    await addComponent(store(), other, 'web', { monitorId: 'mon_b' });
    expect((await store().components.pageIdsShowing('mon_a')).sort()).toEqual([other, pageId].sort());
    expect(await store().components.pageIdsShowing('mon_unknown')).toEqual([]);
  });

  it('links every page to the monitors its components show', async () => {
    const other = await addPage(store(), 'other');
    await addComponent(store(), pageId, 'lobby', { monitorId: 'mon_a' });
    await addComponent(store(), pageId, 'text-only');
    await addComponent(store(), other, 'web', { monitorId: 'mon_b' });
    const links = await store().components.monitorLinks();
    expect(links.sort((x, y) => x.pageId.localeCompare(y.pageId))).toEqual([
      { pageId: other, monitorId: 'mon_b' },
      { pageId, monitorId: 'mon_a' },
    ]);
  });

  it('refuses two components with the same key on one page as a unique violation', async () => {
    await addComponent(store(), pageId, 'lobby');
    const error = await rejectionOf(
      store().components.insert({ ...componentSpec('lobby'), id: 'cmp_twin', pageId, managedBy: 'api' }, NOW),
    );
    expect(store().isUniqueViolation(error)).toBe(true);
  });
});
