// Store contract, organizations and their API keys: what every dialect promises the services.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/check.js';
import type { ApiKey } from '../../src/domain/organization.js';
import {
  addMonitor,
  addOrganization,
  check,
  describeStore,
  NOW,
  ORG,
  OTHER_ORG,
  rejectionOf,
} from './store-fixtures.js';

describeStore('organizations', (store) => {
  it('creates an organization on its first upsert and reports the change', async () => {
    const result = await store().organizations.upsert(ORG, NOW);
    expect(result).toEqual({
      organization: { ...ORG, probePrivateTargets: null, managedBy: 'api', createdAt: NOW, monthlyReport: false },
      changed: true,
    });
    expect(await store().organizations.findByKey('acme')).toEqual({
      ...ORG,
      probePrivateTargets: null,
      managedBy: 'api',
      createdAt: NOW,
      monthlyReport: false,
    });
  });

  it('takes NUL characters in any string (lookups find nothing, text is stored) on every dialect', async () => {
    expect(await store().organizations.findByKey('ac\u0000me')).toBeUndefined();
    const { organization } = await store().organizations.upsert({ ...ORG, name: 'Ac\u0000me' }, NOW);
    expect((await store().organizations.findByKey('acme'))?.name).toMatch(/^Ac(\u0000|\uFFFD)me$/);
    expect(organization.key).toBe('acme');
  });

  it('renames the organization with that key, keeping its id and creation time', async () => {
    await addOrganization(store());
    const result = await store().organizations.upsert({ id: 'org_new', key: 'acme', name: 'Acme Games' }, NOW + 1000);
    const renamed = {
      id: 'org_a',
      key: 'acme',
      name: 'Acme Games',
      probePrivateTargets: null,
      managedBy: 'api',
      createdAt: NOW,
      monthlyReport: false,
    };
    expect(result).toEqual({ organization: renamed, changed: true });
    expect(await store().organizations.findByKey('acme')).toEqual(renamed);
  });

  it('reports no change when the name is the same', async () => {
    await addOrganization(store());
    const result = await store().organizations.upsert({ id: 'org_new', key: 'acme', name: 'Acme' }, NOW + 1000);
    expect(result).toEqual({
      organization: { ...ORG, probePrivateTargets: null, managedBy: 'api', createdAt: NOW, monthlyReport: false },
      changed: false,
    });
  });

  it('sets, keeps and clears the probe-target policy', async () => {
    const created = await store().organizations.upsert({ ...ORG, probePrivateTargets: 'allow' }, NOW);
    expect(created.organization.probePrivateTargets).toBe('allow');
    // Left out: kept as it is.
    expect(await store().organizations.upsert(ORG, NOW + 1)).toMatchObject({
      changed: false,
      organization: { probePrivateTargets: 'allow' },
    });
    expect(await store().organizations.upsert({ ...ORG, probePrivateTargets: 'deny' }, NOW + 2)).toMatchObject({
      changed: true,
      organization: { probePrivateTargets: 'deny' },
    });
    expect((await store().organizations.findByKey('acme'))?.probePrivateTargets).toBe('deny');
    await store().organizations.upsert({ ...ORG, probePrivateTargets: null }, NOW + 3);
    expect((await store().organizations.list())[0]?.probePrivateTargets).toBeNull();
  });

  it('keeps who manages it: api for a new one unless told, config once told, kept when left out', async () => {
    expect((await store().organizations.upsert(ORG, NOW)).organization.managedBy).toBe('api');
    expect(await store().organizations.upsert({ ...ORG, managedBy: 'config' }, NOW + 1)).toMatchObject({
      changed: true,
      organization: { managedBy: 'config' },
    });
    expect(await store().organizations.upsert({ ...ORG, managedBy: 'config' }, NOW + 2)).toMatchObject({
      changed: false,
    });
    // A rename that does not say (the API's) leaves it to the file.
    expect(await store().organizations.upsert({ ...ORG, name: 'Acme 2' }, NOW + 3)).toMatchObject({
      changed: true,
      organization: { managedBy: 'config' },
    });
    expect((await store().organizations.findById(ORG.id))?.managedBy).toBe('config');
    expect((await store().organizations.list())[0]?.managedBy).toBe('config');
    const created = await store().organizations.upsert({ ...OTHER_ORG, managedBy: 'config' }, NOW);
    expect(created.organization.managedBy).toBe('config');
    expect((await store().organizations.findByKey(OTHER_ORG.key))?.managedBy).toBe('config');
  });

  it('lists every organization', async () => {
    await addOrganization(store(), OTHER_ORG);
    await addOrganization(store(), ORG);
    const keys = (await store().organizations.list()).map((o) => o.key);
    expect(keys.sort()).toEqual(['acme', 'globex']);
  });

  it('finds no organization for an unknown key', async () => {
    await addOrganization(store());
    expect(await store().organizations.findByKey('initech')).toBeUndefined();
  });

  it('tells whether an organization other than the given one exists', async () => {
    expect(await store().organizations.anyOtherThan('acme')).toBe(false);
    await addOrganization(store());
    expect(await store().organizations.anyOtherThan('acme')).toBe(false);
    expect(await store().organizations.anyOtherThan('globex')).toBe(true);
    await addOrganization(store(), OTHER_ORG);
    expect(await store().organizations.anyOtherThan('acme')).toBe(true);
  });
});

/** An API key of ORG named after its id, hashed as `hash_<id>`. */
const apiKey = (id: string, createdAt: number, organizationId = ORG.id) => ({
  id,
  organizationId,
  name: `Key ${id}`,
  prefix: `wdk_${id}`,
  scope: 'write' as const,
  createdAt,
  hash: `hash_${id}`,
});

describeStore('API keys', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
  });

  it('lists the keys of an organization oldest first, revoked ones included, without their hash', async () => {
    await store().apiKeys.insert(apiKey('key_c', NOW + 2000));
    await store().apiKeys.insert(apiKey('key_a', NOW));
    await store().apiKeys.insert(apiKey('key_b', NOW + 1000));
    await store().apiKeys.insert(apiKey('key_x', NOW, OTHER_ORG.id));
    await store().apiKeys.revoke(ORG.id, 'key_b', NOW + 5000);
    const keys = await store().apiKeys.list(ORG.id);
    expect(keys.map((k) => [k.id, k.revokedAt])).toEqual([
      ['key_a', null],
      ['key_b', NOW + 5000],
      ['key_c', null],
    ]);
    expect(keys[0]).toEqual({
      id: 'key_a',
      organizationId: ORG.id,
      name: 'Key key_a',
      prefix: 'wdk_key_a',
      scope: 'write',
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
      createdBy: null,
    } satisfies ApiKey);
  });

  it('records who made a key and finds a key by id, revoked or not, in its organization only', async () => {
    await store().users.insert({ id: 'usr_ada', email: 'ada@example.com', name: 'Ada', passwordHash: null }, NOW);
    await store().apiKeys.insert({ ...apiKey('key_a', NOW), createdBy: 'usr_ada' });
    await store().apiKeys.insert(apiKey('key_x', NOW, OTHER_ORG.id));
    await store().apiKeys.revoke(ORG.id, 'key_a', NOW + 1000);
    expect(await store().apiKeys.find(ORG.id, 'key_a')).toMatchObject({
      id: 'key_a',
      createdBy: 'usr_ada',
      revokedAt: NOW + 1000,
    });
    expect((await store().apiKeys.list(ORG.id))[0]?.createdBy).toBe('usr_ada');
    expect(await store().apiKeys.find(ORG.id, 'key_x')).toBeUndefined();
    expect(await store().apiKeys.find(ORG.id, 'key_unknown')).toBeUndefined();
  });

  it('revokes the active keys a user made with the scopes given, and only those, returning them oldest first', async () => {
    await store().apiKeys.insert({ ...apiKey('key_w2', NOW + 2), createdBy: 'usr_ada' });
    await store().apiKeys.insert({ ...apiKey('key_w1', NOW + 1), createdBy: 'usr_ada' });
    await store().apiKeys.insert({ ...apiKey('key_r', NOW), scope: 'read', createdBy: 'usr_ada' });
    await store().apiKeys.insert({ ...apiKey('key_old', NOW), createdBy: 'usr_ada' });
    await store().apiKeys.revoke(ORG.id, 'key_old', NOW + 5);
    await store().apiKeys.insert({ ...apiKey('key_bob', NOW), createdBy: 'usr_bob' });
    await store().apiKeys.insert(apiKey('key_cli', NOW));
    await store().apiKeys.insert({ ...apiKey('key_x', NOW, OTHER_ORG.id), createdBy: 'usr_ada' });

    expect(await store().apiKeys.revokeMadeBy(ORG.id, 'usr_ada', [], NOW + 10)).toEqual([]);
    const writes = await store().apiKeys.revokeMadeBy(ORG.id, 'usr_ada', ['write'], NOW + 10);
    expect(writes.map((k) => [k.id, k.scope, k.revokedAt, k.createdBy])).toEqual([
      ['key_w1', 'write', NOW + 10, 'usr_ada'],
      ['key_w2', 'write', NOW + 10, 'usr_ada'],
    ]);
    expect(await store().apiKeys.findActiveByHash('hash_key_w1')).toBeUndefined();
    expect(await store().apiKeys.findActiveByHash('hash_key_r')).toMatchObject({ id: 'key_r' });

    const rest = await store().apiKeys.revokeMadeBy(ORG.id, 'usr_ada', ['read', 'write'], NOW + 20);
    expect(rest.map((k) => k.id)).toEqual(['key_r']);
    const revokedAt = Object.fromEntries((await store().apiKeys.list(ORG.id)).map((k) => [k.id, k.revokedAt]));
    expect(revokedAt).toEqual({
      key_r: NOW + 20,
      key_old: NOW + 5,
      key_bob: null,
      key_cli: null,
      key_w1: NOW + 10,
      key_w2: NOW + 10,
    });
    expect(await store().apiKeys.findActiveByHash('hash_key_x')).toMatchObject({ id: 'key_x', revokedAt: null });
  });

  it('keeps a read scope', async () => {
    await store().apiKeys.insert({ ...apiKey('key_a', NOW), scope: 'read' });
    expect((await store().apiKeys.list(ORG.id))[0]?.scope).toBe('read');
  });

  it('finds an active key by its hash, hash included', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    expect(await store().apiKeys.findActiveByHash('hash_key_a')).toMatchObject({
      id: 'key_a',
      organizationId: ORG.id,
      hash: 'hash_key_a',
    });
    expect(await store().apiKeys.findActiveByHash('hash_unknown')).toBeUndefined();
  });

  it('ignores a revoked key when looking up by hash', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    await store().apiKeys.revoke(ORG.id, 'key_a', NOW + 1000);
    expect(await store().apiKeys.findActiveByHash('hash_key_a')).toBeUndefined();
  });

  it('counts only the active keys of the organization', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    await store().apiKeys.insert(apiKey('key_b', NOW));
    await store().apiKeys.insert(apiKey('key_x', NOW, OTHER_ORG.id));
    await store().apiKeys.revoke(ORG.id, 'key_b', NOW);
    expect(await store().apiKeys.countActive(ORG.id)).toBe(1);
    expect(await store().apiKeys.countActive(OTHER_ORG.id)).toBe(1);
  });

  it('records when a key was last used', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    await store().apiKeys.touch('key_a', NOW + 60_000);
    expect((await store().apiKeys.list(ORG.id))[0]?.lastUsedAt).toBe(NOW + 60_000);
  });

  it('revokes an active key of the organization once', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    expect(await store().apiKeys.revoke(ORG.id, 'key_a', NOW + 1000)).toBe(true);
    expect(await store().apiKeys.revoke(ORG.id, 'key_a', NOW + 2000)).toBe(false);
    expect((await store().apiKeys.list(ORG.id))[0]?.revokedAt).toBe(NOW + 1000);
    expect(await store().apiKeys.countActive(ORG.id)).toBe(0);
  });

  it("refuses to revoke another organization's key or an unknown one", async () => {
    await store().apiKeys.insert(apiKey('key_x', NOW, OTHER_ORG.id));
    expect(await store().apiKeys.revoke(ORG.id, 'key_x', NOW + 1000)).toBe(false);
    expect(await store().apiKeys.revoke(ORG.id, 'key_unknown', NOW + 1000)).toBe(false);
    expect(await store().apiKeys.findActiveByHash('hash_key_x')).toMatchObject({ id: 'key_x', revokedAt: null });
  });

  it('refuses a second key with the same hash as a unique violation', async () => {
    await store().apiKeys.insert(apiKey('key_a', NOW));
    const error = await rejectionOf(store().apiKeys.insert({ ...apiKey('key_b', NOW), hash: 'hash_key_a' }));
    expect(store().isUniqueViolation(error)).toBe(true);
  });

  it("deletes an organization with its monitors and their checks, and leaves another's", async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'x', { organizationId: OTHER_ORG.id });
    const range = { from: 0, to: NOW + DAY_MS, limit: 10 };
    await store().checks.write([check('mon_a', NOW), check('mon_x', NOW)], []);
    // One folded into `checks` by a read, one still journaled.
    expect(await store().checks.list('mon_a', range)).toHaveLength(1);
    await store().checks.write([check('mon_a', NOW + 1000)], []);
    expect(await store().transaction((t) => t.organizations.delete(ORG.id))).toBe(true);
    expect(await store().monitors.findById('mon_a')).toBeUndefined();
    expect(await store().checks.list('mon_a', range)).toEqual([]);
    expect(await store().checks.list('mon_x', range)).toHaveLength(1);
  });
});
