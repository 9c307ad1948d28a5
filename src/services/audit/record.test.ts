import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed, testContext } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import type { Store } from '../../store/index.js';
import type { ServiceContext } from '../context.js';
import { createRelay } from '../relays/write.js';
import { audited } from './record.js';

const relayWrite = {
  action: 'relay.create',
  object: ({ relay }: { relay: { id: string; key: string } }) => ({ id: relay.id, label: relay.key }),
};

/** The store with an audit log that refuses every entry, in its transactions too. */
function refusingAudit(store: Store): Store {
  const refuse = (s: Store): Store =>
    new Proxy(s, {
      get(target, property) {
        if (property === 'audit')
          return { ...target.audit, append: () => Promise.reject(new Error('the audit log is full')) };
        if (property === 'transaction')
          return <T>(work: (tx: Store) => Promise<T>) => target.transaction((tx) => work(refuse(tx)));
        return Reflect.get(target, property);
      },
    });
  return refuse(store);
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`audited writes on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ctx: ServiceContext;
    beforeEach(async () => {
      opened = await dialect.open();
      const { report } = await seed(opened.store, 'organization: { key: acme, name: Acme }', 1000);
      ctx = {
        ...testContext(opened.store, { now: () => 2000 }),
        organizationId: report.organization.id,
        actor: { kind: 'system', name: 'cli' },
      };
    });
    afterEach(() => opened.cleanup());

    it('commits the write and its entry together: an entry that cannot be written takes the write back', async () => {
      const failing = { ...ctx, store: refusingAudit(opened.store) };
      await expect(
        audited(failing, relayWrite, (tx) => createRelay(tx, { key: 'attic', name: 'Attic' })),
      ).rejects.toThrow('the audit log is full');
      expect(await opened.store.relays.findByKey(ctx.organizationId as string, 'attic')).toBeUndefined();
    });

    it('records nothing for a write that fails', async () => {
      await audited(ctx, relayWrite, (tx) => createRelay(tx, { key: 'attic', name: 'Attic' }));
      await expect(audited(ctx, relayWrite, (tx) => createRelay(tx, { key: 'attic', name: 'Again' }))).rejects.toThrow(
        /already exists/,
      );
      const entries = await opened.store.audit.list({
        organizationId: ctx.organizationId as string,
        limit: 10,
        objectType: 'relay',
      });
      expect(entries).toEqual([
        expect.objectContaining({
          action: 'relay.create',
          actorKind: 'system',
          actorId: 'cli',
          actorName: 'cli',
          objectLabel: 'attic',
          at: 2000,
          detail: null,
        }),
      ]);
    });

    it('records the config file applying changes once per apply, with counts, and nothing for an apply that changed nothing', async () => {
      const yaml = 'organization: { key: acme, name: Acme }\nrelays: [{ key: cellar, name: Cellar }]';
      await seed(opened.store, yaml, 3000);
      await seed(opened.store, yaml, 4000);
      const applied = await opened.store.audit.list({
        organizationId: ctx.organizationId as string,
        limit: 10,
        objectType: 'config',
      });
      expect(applied.map((e) => [e.at, e.actorKind, e.actorId, e.action, e.objectLabel, e.detail])).toEqual([
        [3000, 'system', 'config', 'config.apply', 'acme', { created: 1, updated: 0, deleted: 0 }],
        [1000, 'system', 'config', 'config.apply', 'acme', { created: 1, updated: 0, deleted: 0 }],
      ]);
    });
  });
}
