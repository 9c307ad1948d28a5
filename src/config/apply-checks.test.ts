// What applying warden.yaml shares with the API: the same caps and checks, events only after the commit, and one transaction.
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import type { WardenEvent } from '../bus/events.js';
import { ConflictError } from '../domain/errors.js';
import { LIMITS } from '../domain/limits.js';
import type { ServiceContext } from '../services/context.js';
import { createMonitor } from '../services/monitors/write.js';
import type { Store } from '../store/index.js';
import { applyConfig } from './apply.js';
import { parseConfigText } from './load.js';

const FILE = `
organization: { key: acme, name: Acme }
relays:
  - { key: lab, name: Lab }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
  - { key: proxy, name: Proxy, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.5, port: 25577 } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: Lobby, monitor: lobby }]
`;

/** Lowers one of the caps for this test: the real ones (10,000 monitors) are too many to fill in a test. */
function lowerCap(name: keyof typeof LIMITS, value: number): void {
  const limits = LIMITS as Record<keyof typeof LIMITS, number>;
  const real = limits[name];
  limits[name] = value;
  onTestFinished(() => {
    limits[name] = real;
  });
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`applying warden.yaml through the verbs on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ctx: ServiceContext;
    const apply = (yaml: string, on: ServiceContext = ctx) => applyConfig(on, parseConfigText(yaml, 'test.yaml', {}));
    /** The API's context for the organization the file made. */
    const apiFor = async () => ({ ...ctx, organizationId: (await opened.store.organizations.findByKey('acme'))?.id });
    beforeEach(async () => {
      opened = await dialect.open();
      ctx = testContext(opened.store, { now: () => 1000 });
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('refuses (409) to delete a relay that a monitor made through the API still runs on, naming the relay', async () => {
      await apply(FILE);
      await createMonitor(await apiFor(), {
        key: 'manual',
        name: 'Manual',
        type: 'tcp',
        runOn: 'relay',
        relay: 'lab',
        config: { host: '10.0.0.9', port: 1 },
      });
      const withoutLab = FILE.replace('relays:\n  - { key: lab, name: Lab }\n', '').replace(
        / {2}- \{ key: proxy.*\n/,
        '',
      );
      const failure = await apply(withoutLab).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConflictError);
      expect(failure).toMatchObject({
        status: 409,
        message: 'relay lab: relay "lab" runs monitors "manual"; move or delete them first',
      });
      // The monitor deleted before the relay step is back: the whole apply rolled back.
      const organizationId = (await apiFor()).organizationId as string;
      expect((await opened.store.monitors.list(organizationId)).map((m) => m.key)).toEqual([
        'lobby',
        'manual',
        'proxy',
      ]);
      expect(await opened.store.relays.findByKey(organizationId, 'lab')).toBeDefined();
    });

    it('refuses a monitor over the organization’s cap, naming it in the file, and creates none of them', async () => {
      lowerCap('monitorsPerOrganization', 3);
      await apply('organization: { key: acme, name: Acme }');
      const api = await apiFor();
      for (const key of ['one', 'two'])
        await createMonitor(api, { key, name: key, type: 'tcp', config: { host: 'x.example.com', port: 1 } });
      await expect(apply(FILE)).rejects.toThrow('monitors[1] (monitor proxy): an organization has at most 3 monitors');
      expect((await opened.store.monitors.list(api.organizationId as string)).map((m) => m.key)).toEqual([
        'one',
        'two',
      ]);
      expect(await opened.store.pages.findBySlug('acme')).toBeUndefined();
    });

    it('deletes the monitors it no longer lists before creating new ones, so a file at the cap can swap them', async () => {
      lowerCap('monitorsPerOrganization', 2);
      await apply(FILE);
      const swapped = FILE.replace('key: lobby, name: Lobby', 'key: hub, name: Hub').replace(
        'monitor: lobby',
        'monitor: hub',
      );
      const report = await apply(swapped);
      expect(report.deleted).toContain('monitor lobby');
      expect(report.created).toContain('monitor hub');
    });

    it('publishes page.changed and monitors.changed once the transaction committed, for readers that see the change', async () => {
      let committed = false;
      const watched: Store = {
        ...opened.store,
        async transaction(work) {
          const result = await opened.store.transaction(work);
          committed = true;
          return result;
        },
      };
      const seen: { type: WardenEvent['type']; committed: boolean; page: Promise<unknown> }[] = [];
      for (const type of ['page.changed', 'monitors.changed'] as const)
        ctx.bus.subscribe(type, (event) =>
          seen.push({ type: event.type, committed, page: opened.store.pages.findBySlug('acme') }),
        );
      const applying = apply(FILE, { ...ctx, store: watched });
      expect(seen).toEqual([]);
      await applying;
      expect(new Set(seen.map((e) => e.type))).toEqual(new Set(['page.changed', 'monitors.changed']));
      expect(seen.every((e) => e.committed)).toBe(true);
      for (const event of seen) await expect(event.page).resolves.toMatchObject({ slug: 'acme' });
    });

    it('leaves the database as it was, and publishes nothing, when a step fails part way', async () => {
      const first = await apply(FILE);
      await apply('organization: { key: rival, name: Rival }\npages: [{ slug: taken, title: Theirs }]');
      const events: WardenEvent[] = [];
      for (const type of ['page.changed', 'monitors.changed'] as const)
        ctx.bus.subscribe(type, (event) => events.push(event));
      const broken = FILE.replace('name: Acme }', 'name: Acme Renamed }')
        .replace('name: Lobby, type', 'name: Main lobby, type')
        .replace('title: Acme', 'title: Acme Network')
        .concat('  - { slug: taken, title: Mine }\n');
      await expect(apply(broken)).rejects.toThrow(
        'pages[1] (page taken): page slug "taken" belongs to another organization',
      );
      expect(events).toEqual([]);
      expect(await opened.store.organizations.findByKey('acme')).toMatchObject({ name: 'Acme' });
      expect(await opened.store.monitors.findByKey(first.organization.id, 'lobby')).toMatchObject({ name: 'Lobby' });
      expect(await opened.store.pages.findBySlug('acme')).toMatchObject({ title: 'Acme' });
      expect(await opened.store.pages.findBySlug('taken')).toMatchObject({ title: 'Theirs' });
    });
  });
}
