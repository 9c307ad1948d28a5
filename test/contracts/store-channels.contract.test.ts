// store.channels on every dialect: an organization's channels by key, the enabled ones, edits, and a channel deleted
// with its deliveries.
import { expect, it } from 'vitest';
import {
  addChannel,
  addOrganization,
  channelSpec,
  delivery,
  describeStore,
  NOW,
  ORG,
  OTHER_ORG,
  rejectionOf,
} from './store-fixtures.js';

describeStore('store channels', (store) => {
  it('keeps channels per organization, enabled ones apart, and deletes a channel with its deliveries', async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
    const a = await addChannel(store(), 'a', { rules: { events: ['monitor.down'], monitors: ['lobby'] } });
    await addChannel(store(), 'b', { enabled: false });
    await addChannel(store(), 'a2', { organizationId: OTHER_ORG.id });
    expect((await store().channels.list(ORG.id)).map((c) => c.key)).toEqual(['a', 'b']);
    expect((await store().channels.listEnabled(ORG.id)).map((c) => c.key)).toEqual(['a']);
    const found = await store().channels.findByKey(ORG.id, 'a');
    expect(found).toMatchObject({
      id: a,
      type: 'webhook',
      config: { url: 'http://127.0.0.1:1/hook' },
      rules: { events: ['monitor.down'], monitors: ['lobby'] },
      enabled: true,
    });
    const error = await rejectionOf(
      store().channels.insert({ ...channelSpec('a'), id: 'nch_dup', organizationId: ORG.id, managedBy: 'api' }, NOW),
    );
    expect(store().isUniqueViolation(error)).toBe(true);
    await store().channels.update(a, channelSpec('a', { name: 'Renamed', enabled: false }), 'config', NOW + 1);
    expect(await store().channels.findById(a)).toMatchObject({
      name: 'Renamed',
      enabled: false,
      managedBy: 'config',
      updatedAt: NOW + 1,
    });
    await store().deliveries.enqueue([delivery(a, 'evt_1')], NOW);
    await store().channels.delete(a);
    expect(await store().channels.findById(a)).toBeUndefined();
    expect(await store().deliveries.listByChannel(a, 10)).toEqual([]);
  });
});
