// Store contract, monitors: what a writer sets, what comes back, and the push tokens that find them.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/check.js';
import type { Monitor } from '../../src/domain/monitor.js';
import {
  addMonitor,
  addOrganization,
  addRelay,
  check,
  describeStore,
  monitorSpec,
  NOW,
  ORG,
  OTHER_ORG,
  rejectionOf,
  stateRow,
} from './store-fixtures.js';

describeStore('monitors', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
  });

  it('stores a new monitor exactly as written, unknown since its creation', async () => {
    const relayId = await addRelay(store(), 'a');
    const config = {
      host: 'mc.example.com',
      port: 25565,
      nested: { list: [1, 'two', null, true], empty: {} },
      text: 'é ✓ "quoted"',
    };
    await store().monitors.insert(
      {
        ...monitorSpec('lobby', {
          type: 'minecraft-java',
          config,
          runOn: 'relay',
          relayId,
          enabled: false,
          retries: 3,
          degradedLatencyMs: 250,
        }),
        id: 'mon_a',
        organizationId: ORG.id,
        managedBy: 'config',
        pushToken: null,
      },
      NOW,
    );
    expect(await store().monitors.findById('mon_a')).toEqual({
      id: 'mon_a',
      organizationId: ORG.id,
      key: 'lobby',
      name: 'Monitor lobby',
      type: 'minecraft-java',
      config,
      intervalSec: 60,
      timeoutMs: 5000,
      runOn: 'relay',
      relayId,
      pushTokenPrefix: null,
      enabled: false,
      pausedAt: NOW,
      retries: 3,
      degradedLatencyMs: 250,
      state: 'unknown',
      stateSince: NOW,
      failureStreak: 0,
      lastCheckAt: null,
      lastResult: null,
      secretsSetAt: null,
      notify: null,
      tags: [],
      playerAlerts: null,
      expectedRestart: null,
      dependsOn: null,
      locations: null,
      quorum: null,
      locationResults: {},
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW,
    } satisfies Monitor);
  });

  it('keeps the other locations and quorum a spec sets, and clears them with null', async () => {
    const relayId = await addRelay(store(), 'fra');
    await addMonitor(store(), 'a', { locations: ['edge', relayId], quorum: 2 });
    await addMonitor(store(), 'b');
    expect(await store().monitors.findById('mon_a')).toMatchObject({ locations: ['edge', relayId], quorum: 2 });
    expect(await store().monitors.findById('mon_b')).toMatchObject({ locations: null, quorum: null });
    await store().monitors.updateSpec('mon_a', monitorSpec('a', { locations: null, quorum: null }), 'api', NOW + 1);
    expect(await store().monitors.findById('mon_a')).toMatchObject({ locations: null, quorum: null });
    expect(await store().monitors.keysOnRelay(relayId)).toEqual([]);
    await store().monitors.updateSpec('mon_b', monitorSpec('b', { locations: [relayId] }), 'api', NOW + 1);
    expect(await store().monitors.keysOnRelay(relayId)).toEqual(['b']);
  });

  it('records when the secrets were written in full, at insert and later', async () => {
    await store().monitors.insert(
      {
        ...monitorSpec('a'),
        id: 'mon_a',
        organizationId: ORG.id,
        managedBy: 'api',
        pushToken: null,
        secretsSetAt: NOW,
      },
      NOW,
    );
    expect(await store().monitors.findById('mon_a')).toMatchObject({ secretsSetAt: NOW });
    await store().monitors.markSecretsSet('mon_a', NOW + 5000);
    expect(await store().monitors.findById('mon_a')).toMatchObject({ secretsSetAt: NOW + 5000, updatedAt: NOW });
  });

  it('keeps an enabled monitor without degraded latency as such', async () => {
    await addMonitor(store(), 'a');
    expect(await store().monitors.findById('mon_a')).toMatchObject({
      enabled: true,
      degradedLatencyMs: null,
      relayId: null,
      managedBy: 'api',
    });
  });

  it("lists an organization's monitors by key, and counts them", async () => {
    await addMonitor(store(), 'c');
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
    await addMonitor(store(), 'x', { organizationId: OTHER_ORG.id });
    expect((await store().monitors.list(ORG.id)).map((m) => m.key)).toEqual(['a', 'b', 'c']);
    expect(await store().monitors.count(ORG.id)).toBe(3);
    expect(await store().monitors.count(OTHER_ORG.id)).toBe(1);
  });

  it('finds the monitors among these ids that exist', async () => {
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
    await addMonitor(store(), 'c');
    const found = await store().monitors.findByIds(['mon_c', 'mon_unknown', 'mon_a']);
    expect(found.map((m) => m.id).sort()).toEqual(['mon_a', 'mon_c']);
    expect(await store().monitors.findByIds([])).toEqual([]);
    expect(await store().monitors.findById('mon_unknown')).toBeUndefined();
  });

  it('finds a monitor by key within its organization only', async () => {
    await addMonitor(store(), 'a');
    expect(await store().monitors.findByKey(ORG.id, 'a')).toMatchObject({ id: 'mon_a' });
    expect(await store().monitors.findByKey(OTHER_ORG.id, 'a')).toBeUndefined();
  });

  it('finds a push monitor by the hash of its token', async () => {
    await addMonitor(store(), 'a', {
      type: 'heartbeat',
      runOn: 'push',
      pushToken: { hash: 'hash_1', prefix: 'wdp_1' },
    });
    expect(await store().monitors.findByPushTokenHash('hash_1')).toMatchObject({
      id: 'mon_a',
      pushTokenHash: 'hash_1',
      pushTokenPrefix: 'wdp_1',
    });
    expect(await store().monitors.pushTokenHash('mon_a')).toBe('hash_1');
    expect(await store().monitors.findByPushTokenHash('hash_unknown')).toBeUndefined();
  });

  it('finds the enabled push monitors of many token hashes in one call, and nothing for the rest', async () => {
    const push = (hash: string, enabled = true) => ({
      type: 'heartbeat' as const,
      runOn: 'push' as const,
      enabled,
      pushToken: { hash, prefix: `wdp_${hash}` },
    });
    await addMonitor(store(), 'a', push('hash_a'));
    await addMonitor(store(), 'b', push('hash_b'));
    await addMonitor(store(), 'paused', push('hash_paused', false));
    await addMonitor(store(), 'other', { ...push('hash_other'), organizationId: OTHER_ORG.id });
    expect(
      await store().monitors.pushTargets(['hash_b', 'hash_a', 'hash_paused', 'hash_other', 'hash_unknown']),
    ).toEqual(
      new Map([
        ['hash_a', 'mon_a'],
        ['hash_b', 'mon_b'],
        ['hash_other', 'mon_other'],
      ]),
    );
    expect(await store().monitors.pushTargets([])).toEqual(new Map());
  });

  it('has no push token hash for a monitor without one, or an unknown monitor', async () => {
    await addMonitor(store(), 'a');
    expect(await store().monitors.pushTokenHash('mon_a')).toBeNull();
    expect(await store().monitors.pushTokenHash('mon_unknown')).toBeNull();
  });

  it('replaces the push token at once, and forgets it when set to none', async () => {
    await addMonitor(store(), 'a', {
      type: 'heartbeat',
      runOn: 'push',
      pushToken: { hash: 'hash_1', prefix: 'wdp_1' },
    });
    await store().monitors.setPushToken('mon_a', { hash: 'hash_2', prefix: 'wdp_2' }, NOW + 1000);
    expect(await store().monitors.findByPushTokenHash('hash_1')).toBeUndefined();
    expect(await store().monitors.findById('mon_a')).toMatchObject({ pushTokenPrefix: 'wdp_2', updatedAt: NOW + 1000 });
    await store().monitors.setPushToken('mon_a', null, NOW + 2000);
    expect(await store().monitors.pushTokenHash('mon_a')).toBeNull();
    expect(await store().monitors.findById('mon_a')).toMatchObject({ pushTokenPrefix: null });
  });

  it('replaces the spec and owner, keeping state, push token and creation time', async () => {
    await addMonitor(store(), 'a', { pushToken: { hash: 'hash_1', prefix: 'wdp_1' } });
    await store().checks.write(
      [],
      [stateRow('mon_a', { state: 'down', stateSince: NOW + 10, failureStreak: 2, lastCheckAt: NOW + 10 })],
    );
    const spec = monitorSpec('a', {
      name: 'Renamed',
      type: 'http',
      config: { url: 'https://example.com' },
      intervalSec: 30,
      timeoutMs: 1000,
      enabled: false,
      retries: 0,
      degradedLatencyMs: 800,
    });
    await store().monitors.updateSpec('mon_a', spec, 'config', NOW + 1000);
    const {
      id,
      organizationId,
      key,
      name,
      type,
      config,
      intervalSec,
      timeoutMs,
      runOn,
      relayId,
      enabled,
      retries,
      degradedLatencyMs,
      ...rest
    } = (await store().monitors.findById('mon_a')) as Monitor;
    expect({
      key,
      name,
      type,
      config,
      intervalSec,
      timeoutMs,
      runOn,
      relayId,
      enabled,
      retries,
      degradedLatencyMs,
    }).toEqual(spec);
    expect(rest).toEqual({
      pushTokenPrefix: 'wdp_1',
      pausedAt: NOW + 1000,
      state: 'down',
      stateSince: NOW + 10,
      failureStreak: 2,
      lastCheckAt: NOW + 10,
      lastResult: null,
      secretsSetAt: null,
      notify: null,
      tags: [],
      playerAlerts: null,
      expectedRestart: null,
      dependsOn: null,
      locations: null,
      quorum: null,
      locationResults: {},
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW + 1000,
    });
    expect([id, organizationId]).toEqual(['mon_a', ORG.id]);
  });

  it('keeps the time of a pause while the monitor stays paused, and forgets it on resume', async () => {
    await addMonitor(store(), 'a');
    const pause = async (enabled: boolean, at: number) => {
      await store().monitors.updateSpec('mon_a', monitorSpec('a', { enabled }), 'api', at);
      return (await store().monitors.findById('mon_a'))?.pausedAt;
    };
    const times = [await pause(false, NOW + 1), await pause(false, NOW + 2), await pause(true, NOW + 3)];
    expect(times).toEqual([NOW + 1, NOW + 1, null]);
  });

  it('moves a monitor onto a relay and back', async () => {
    const relayId = await addRelay(store(), 'a');
    await addMonitor(store(), 'a');
    await store().monitors.updateSpec('mon_a', monitorSpec('a', { runOn: 'relay', relayId }), 'api', NOW);
    expect(await store().monitors.findById('mon_a')).toMatchObject({ runOn: 'relay', relayId });
    await store().monitors.updateSpec('mon_a', monitorSpec('a'), 'api', NOW);
    expect(await store().monitors.findById('mon_a')).toMatchObject({ runOn: 'edge', relayId: null });
  });

  it('deletes a monitor', async () => {
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
    await store().monitors.delete('mon_a');
    expect(await store().monitors.findById('mon_a')).toBeUndefined();
    expect(await store().monitors.listIds()).toEqual(['mon_b']);
  });

  it('deletes a monitor with its checks, folded or still journaled, and no other', async () => {
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
    const range = { from: 0, to: NOW + DAY_MS, limit: 10 };
    await store().checks.write(
      [check('mon_a', NOW, { source: 'relay', resultId: 'res_1' }), check('mon_b', NOW, { resultId: null })],
      [],
    );
    // A read folds the journal into `checks`; the next check stays journaled until the next one.
    expect(await store().checks.list('mon_a', range)).toHaveLength(1);
    await store().checks.write([check('mon_a', NOW + 1000, { source: 'relay', resultId: 'res_2' })], []);
    await store().transaction((t) => t.monitors.delete('mon_a'));
    expect(await store().checks.list('mon_a', range)).toEqual([]);
    expect(
      await store().checks.storedResultKeys([
        { monitorId: 'mon_a', resultId: 'res_1' },
        { monitorId: 'mon_a', resultId: 'res_2' },
      ]),
    ).toEqual(new Set());
    expect(await store().checks.list('mon_b', range)).toHaveLength(1);
  });

  it('lists the ids of every monitor of every organization', async () => {
    await addMonitor(store(), 'b');
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'x', { organizationId: OTHER_ORG.id });
    expect((await store().monitors.listIds()).sort()).toEqual(['mon_a', 'mon_b', 'mon_x']);
  });

  it('gives the keys of the monitors a relay runs, enabled or not', async () => {
    const relayA = await addRelay(store(), 'a');
    const relayB = await addRelay(store(), 'b');
    await addMonitor(store(), 'b', { runOn: 'relay', relayId: relayA });
    await addMonitor(store(), 'a', { runOn: 'relay', relayId: relayA, enabled: false });
    await addMonitor(store(), 'x', { runOn: 'relay', relayId: relayB });
    await addMonitor(store(), 'edge');
    expect((await store().monitors.keysOnRelay(relayA)).sort()).toEqual(['a', 'b']);
    expect(await store().monitors.keysOnRelay('rly_unknown')).toEqual([]);
  });

  it('lists the monitors of an organization that name channels, with the keys they name', async () => {
    await addMonitor(store(), 'a', { notify: ['ops', 'pager'] });
    await addMonitor(store(), 'b');
    await addMonitor(store(), 'c', { notify: [] });
    await addMonitor(store(), 'x', { organizationId: OTHER_ORG.id, notify: ['ops'] });
    expect(await store().monitors.listNotify(ORG.id)).toEqual([{ id: 'mon_a', notify: ['ops', 'pager'] }]);
  });

  it('refuses two monitors with the same key in one organization as a unique violation', async () => {
    await addMonitor(store(), 'a');
    await store().monitors.insert(
      { ...monitorSpec('a'), id: 'mon_other', organizationId: OTHER_ORG.id, managedBy: 'api', pushToken: null },
      NOW,
    );
    const error = await rejectionOf(
      store().monitors.insert(
        { ...monitorSpec('a'), id: 'mon_twin', organizationId: ORG.id, managedBy: 'api', pushToken: null },
        NOW,
      ),
    );
    expect(store().isUniqueViolation(error)).toBe(true);
  });
});
