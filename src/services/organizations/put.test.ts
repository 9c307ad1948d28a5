// putOrganization: the probe-target policy from warden.yaml, kept, changed and cleared, each change announced.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import type { WardenEvent } from '../../bus/events.js';
import { ValidationError } from '../../domain/errors.js';
import { putOrganization } from './put.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`putOrganization on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(() => opened.cleanup());

    it('stores probePrivateTargets, clears it when the file drops it, and tells the runner each time', async () => {
      let now = 1000;
      const ctx = testContext(opened.store, { now: () => now++ });
      const events: WardenEvent[] = [];
      ctx.bus.subscribe('monitors.changed', (event) => void events.push(event));

      const created = await putOrganization(ctx, { key: 'home', name: 'Home', probePrivateTargets: 'allow' });
      expect(created).toMatchObject({ outcome: 'created', organization: { probePrivateTargets: 'allow' } });
      expect(await putOrganization(ctx, { key: 'home', name: 'Home', probePrivateTargets: 'allow' })).toMatchObject({
        outcome: 'unchanged',
      });
      expect(await putOrganization(ctx, { key: 'home', name: 'Home', probePrivateTargets: 'deny' })).toMatchObject({
        outcome: 'updated',
      });
      expect(await putOrganization(ctx, { key: 'home', name: 'Home' })).toMatchObject({
        outcome: 'updated',
        organization: { probePrivateTargets: null },
      });
      expect((await opened.store.organizations.findByKey('home'))?.probePrivateTargets).toBeNull();
      expect(events.map((event) => event.type === 'monitors.changed' && event.organizationId)).toEqual(
        Array(3).fill(created.organization.id),
      );
    });

    it('refuses anything but allow or deny, naming the field', async () => {
      const error = await putOrganization(testContext(opened.store), {
        key: 'home',
        name: 'Home',
        probePrivateTargets: 'yes' as 'allow',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toMatchObject([
        { path: 'probePrivateTargets', message: 'expected allow or deny' },
      ]);
    });
  });
