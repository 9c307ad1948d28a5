// Store contract, relays: their tokens, when they were last seen, and what the watchdog reads of them.
import { beforeEach, expect, it } from 'vitest';
import type { Relay } from '../../src/domain/organization.js';
import {
  addMonitor,
  addOrganization,
  addRelay,
  describeStore,
  NOW,
  ORG,
  OTHER_ORG,
  rejectionOf,
} from './store-fixtures.js';

describeStore('relays', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
  });

  it('stores a new relay without a token and not yet seen', async () => {
    await store().relays.insert(
      { id: 'rly_a', organizationId: ORG.id, key: 'basement', name: 'Basement', managedBy: 'config' },
      NOW,
    );
    expect(await store().relays.findById('rly_a')).toEqual({
      id: 'rly_a',
      organizationId: ORG.id,
      key: 'basement',
      name: 'Basement',
      tokenPrefix: null,
      hasToken: false,
      lastSeenAt: null,
      secretsWithheldBefore: null,
      dependsOn: null,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW,
    } satisfies Relay);
  });

  it("lists and counts only the organization's relays", async () => {
    await addRelay(store(), 'b');
    await addRelay(store(), 'a');
    await addRelay(store(), 'x', OTHER_ORG.id);
    expect((await store().relays.list(ORG.id)).map((r) => r.id).sort()).toEqual(['rly_a', 'rly_b']);
    expect(await store().relays.count(ORG.id)).toBe(2);
    expect(await store().relays.count(OTHER_ORG.id)).toBe(1);
  });

  it('finds a relay by key within its organization only', async () => {
    await addRelay(store(), 'a');
    expect(await store().relays.findByKey(ORG.id, 'a')).toMatchObject({ id: 'rly_a' });
    expect(await store().relays.findByKey(OTHER_ORG.id, 'a')).toBeUndefined();
    expect(await store().relays.findById('rly_unknown')).toBeUndefined();
  });

  it('finds a relay by the hash of its token, which a new token replaces at once', async () => {
    await addRelay(store(), 'a');
    await store().relays.setToken('rly_a', { hash: 'hash_1', prefix: 'wdr_1' }, NOW + 1000);
    expect(await store().relays.findByTokenHash('hash_1')).toMatchObject({
      id: 'rly_a',
      tokenHash: 'hash_1',
      tokenPrefix: 'wdr_1',
      hasToken: true,
      updatedAt: NOW + 1000,
    });
    await store().relays.setToken('rly_a', { hash: 'hash_2', prefix: 'wdr_2' }, NOW + 2000);
    expect(await store().relays.findByTokenHash('hash_1')).toBeUndefined();
    expect(await store().relays.findByTokenHash('hash_2')).toMatchObject({ id: 'rly_a', tokenPrefix: 'wdr_2' });
  });

  it('records since when secrets are withheld from the relay config, and clears it', async () => {
    await addRelay(store(), 'a');
    await store().relays.withholdSecrets('rly_a', NOW + 1000);
    expect(await store().relays.findById('rly_a')).toMatchObject({ secretsWithheldBefore: NOW + 1000, updatedAt: NOW });
    await store().relays.setToken('rly_a', { hash: 'hash_1', prefix: 'wdr_1' }, NOW + 2000);
    expect(await store().relays.findByTokenHash('hash_1')).toMatchObject({ secretsWithheldBefore: NOW + 1000 });
    await store().relays.withholdSecrets('rly_a', null);
    expect(await store().relays.findById('rly_a')).toMatchObject({ secretsWithheldBefore: null });
  });

  it('forgets the token when it is set to none', async () => {
    await addRelay(store(), 'a');
    await store().relays.setToken('rly_a', { hash: 'hash_1', prefix: 'wdr_1' }, NOW);
    await store().relays.setToken('rly_a', null, NOW + 1000);
    expect(await store().relays.findById('rly_a')).toMatchObject({ hasToken: false, tokenPrefix: null });
    expect(await store().relays.findByTokenHash('hash_1')).toBeUndefined();
  });

  it('updates only what the change names', async () => {
    await addRelay(store(), 'a');
    await store().relays.update('rly_a', { name: 'Attic' }, NOW + 1000);
    expect(await store().relays.findById('rly_a')).toMatchObject({
      name: 'Attic',
      managedBy: 'api',
      updatedAt: NOW + 1000,
    });
    await store().relays.update('rly_a', { managedBy: 'config' }, NOW + 2000);
    expect(await store().relays.findById('rly_a')).toMatchObject({
      name: 'Attic',
      managedBy: 'config',
      updatedAt: NOW + 2000,
    });
  });

  it('records when the relay was last seen', async () => {
    await addRelay(store(), 'a');
    await store().relays.touch('rly_a', NOW + 5000);
    expect(await store().relays.findById('rly_a')).toMatchObject({ lastSeenAt: NOW + 5000 });
  });

  it('leaves the monitors of a deleted relay in place, without a relay', async () => {
    const relayId = await addRelay(store(), 'a');
    await addMonitor(store(), 'a', { runOn: 'relay', relayId });
    await store().relays.delete(relayId);
    expect(await store().relays.findById(relayId)).toBeUndefined();
    expect(await store().monitors.findById('mon_a')).toMatchObject({ relayId: null, runOn: 'relay' });
  });

  it('gives each relay running an enabled monitor with the shortest interval among them', async () => {
    const a = await addRelay(store(), 'a');
    const b = await addRelay(store(), 'b');
    const idle = await addRelay(store(), 'idle');
    await addRelay(store(), 'empty');
    await store().relays.touch(a, NOW - 1000);
    await addMonitor(store(), 'a1', { runOn: 'relay', relayId: a, intervalSec: 120 });
    await addMonitor(store(), 'a2', { runOn: 'relay', relayId: a, intervalSec: 30 });
    await addMonitor(store(), 'a3', { runOn: 'relay', relayId: a, intervalSec: 10, enabled: false });
    await addMonitor(store(), 'b1', { runOn: 'relay', relayId: b, intervalSec: 300 });
    await addMonitor(store(), 'idle1', { runOn: 'relay', relayId: idle, enabled: false });
    // Monitors that name a relay among their other locations count for it too.
    const extra = await addRelay(store(), 'extra');
    await addMonitor(store(), 'x1', { intervalSec: 90, locations: [extra] });
    await addMonitor(store(), 'x2', { intervalSec: 60, locations: [b] });
    const activity = await store().relays.listActivity();
    expect(activity.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: a, lastSeenAt: NOW - 1000, offlineSince: null, shortestIntervalSec: 30 },
      { id: b, lastSeenAt: null, offlineSince: null, shortestIntervalSec: 60 },
      { id: extra, lastSeenAt: null, offlineSince: null, shortestIntervalSec: 90 },
    ]);
  });

  it('refuses a second relay with the same key in one organization as a unique violation', async () => {
    await addRelay(store(), 'a');
    await store().relays.insert(
      { id: 'rly_other', organizationId: OTHER_ORG.id, key: 'a', name: 'A', managedBy: 'api' },
      NOW,
    );
    const error = await rejectionOf(
      store().relays.insert({ id: 'rly_twin', organizationId: ORG.id, key: 'a', name: 'A', managedBy: 'api' }, NOW),
    );
    expect(store().isUniqueViolation(error)).toBe(true);
  });
});
