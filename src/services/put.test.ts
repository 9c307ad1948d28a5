// The rule every put… verb of warden.yaml shares (putByKey): created, taken over, refused, or left alone, on both dialects.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { ConflictError } from '../domain/errors.js';
import type { ManagedBy } from '../domain/ownership.js';
import { createComponent, putComponent } from './components/write.js';
import type { ServiceContext } from './context.js';
import { createMaintenance, putMaintenance } from './maintenance/write.js';
import { createChannel, putChannel } from './notifications/write.js';
import { createPage, putPage } from './pages/write.js';
import { createRelay, putRelay } from './relays/write.js';

const ORG = { id: 'org_a', key: 'acme', name: 'Acme' };
const page = { slug: 'status', title: 'Status' };
const component = { slug: 'status', key: 'lobby', name: 'Lobby', order: 0 };
const window = {
  slug: 'status',
  key: 'switch',
  title: 'Switches',
  startsAt: 5_000_000,
  endsAt: 9_000_000,
  components: ['lobby'],
};
const channel = {
  key: 'ops',
  name: 'Ops',
  type: 'webhook' as const,
  config: { url: 'https://hooks.example.com/ops', secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}` },
};
const relay = { key: 'lab', name: 'Home lab' };

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`put… verbs on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let now = 1000;
    const as = (writer: ManagedBy): ServiceContext => ({
      ...testContext(opened.store, { now: () => now }),
      organizationId: ORG.id,
      writer,
    });
    beforeEach(async () => {
      opened = await dialect.open();
      await opened.store.organizations.upsert(ORG, 0);
    });
    afterEach(() => opened.cleanup());

    it('creates what the file names, then leaves it alone while the file says the same', async () => {
      const config = as('config');
      expect((await putRelay(config, relay)).outcome).toBe('created');
      expect((await putPage(config, page)).outcome).toBe('created');
      expect((await putComponent(config, component)).outcome).toBe('created');
      expect((await putMaintenance(config, window)).outcome).toBe('created');
      expect((await putChannel(config, channel)).outcome).toBe('created');
      now = 2000;
      const again = [
        await putRelay(config, relay),
        await putPage(config, page),
        await putComponent(config, component),
        await putMaintenance(config, window),
        await putChannel(config, channel),
      ];
      expect(again.map((r) => r.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
      expect((await putPage(config, page)).page.updatedAt).toBe(1000);
    });

    it('takes over what the API made, even when the file says the same of it', async () => {
      const api = as('api');
      await createRelay(api, relay);
      await createPage(api, page);
      await createComponent(api, component);
      await createMaintenance(api, window);
      await createChannel(api, channel);
      now = 2000;
      const config = as('config');
      const taken = [
        (await putRelay(config, relay)).relay,
        (await putPage(config, page)).page,
        (await putComponent(config, component)).component,
        (await putMaintenance(config, window)).window,
        (await putChannel(config, channel)).channel,
      ];
      expect(taken.map((object) => object.managedBy)).toEqual(['config', 'config', 'config', 'config', 'config']);
      expect((await putComponent(config, component)).outcome).toBe('unchanged');
    });

    it('updates what changed in the file, and refuses another writer what the file manages, changed or not', async () => {
      const config = as('config');
      await putPage(config, page);
      await putComponent(config, component);
      const renamed = await putComponent(config, { ...component, name: 'Main lobby' });
      expect([renamed.outcome, renamed.component.name]).toEqual(['updated', 'Main lobby']);
      await expect(putComponent(as('api'), { ...component, name: 'Main lobby' })).rejects.toThrow(ConflictError);
      await expect(putComponent(as('api'), component)).rejects.toThrow(
        'component "lobby" of page "status" is managed by warden.yaml',
      );
      expect((await opened.store.components.findById(renamed.component.id))?.name).toBe('Main lobby');
    });
  });
