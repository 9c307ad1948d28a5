// The built-in demo at start: loaded (with a fresh heartbeat token) while the database holds nothing else, retired —
// monitors paused, page removed, organization kept — once the operator has an organization, never counted when a
// command picks "the only organization", and deleted by removeDemo.
import { afterEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { parseConfigText } from '../config/load.js';
import { completeSetup } from '../services/accounts/setup.js';
import { openSetupCode } from '../services/accounts/setup-code.js';
import { removeDemo } from '../services/organizations/demo.js';
import { resolveOrganization } from '../services/organizations/resolve.js';
import { applyStartConfig } from './first-run.js';

const OWN = parseConfigText(
  'organization: { key: ops, name: Ops }\nmonitors:\n  - { key: beat, name: Beat, type: heartbeat }\n',
  'warden.yaml',
  {},
);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the built-in demo at start on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    afterEach(async () => {
      await opened?.cleanup();
      opened = undefined;
    });

    it('is loaded again with a new heartbeat token on every start while alone', async () => {
      opened = await dialect.open();
      const ctx = testContext(opened.store, { now: () => 1_000 });
      const first = await applyStartConfig(ctx, null, 8080);
      const second = await applyStartConfig(ctx, null, 8080);
      expect(first.demoPushToken).toMatch(/^wdp_/);
      expect(second.demoPushToken).toMatch(/^wdp_/);
      expect(second.demoPushToken).not.toBe(first.demoPushToken);
      expect(second.demoRetired).toBe(false);
      // Alone, the demo is the organization a command acts on.
      expect((await resolveOrganization(ctx)).key).toBe('demo');
    });

    it('steps aside at once when the first owner is set up, without waiting for a restart', async () => {
      opened = await dialect.open();
      const ctx = testContext(opened.store, { now: () => 1_000 });
      await applyStartConfig(ctx, null, 8080);
      const demo = await opened.store.organizations.findByKey('demo');
      expect((await opened.store.pages.list()).map((p) => p.slug)).toEqual(['demo']);
      const code = (await openSetupCode(ctx))?.code;
      await completeSetup(ctx, {
        code,
        email: 'olive@example.com',
        name: 'Olive',
        password: 'correct horse battery staple',
        userAgent: undefined,
        address: '127.0.0.1',
      });
      expect((await opened.store.monitors.list(demo?.id ?? '')).map((m) => `${m.key}:${m.enabled}`).sort()).toEqual([
        'demo-heartbeat:false',
        'demo-http:false',
        'demo-tcp:false',
      ]);
      expect((await opened.store.pages.list()).map((p) => p.slug)).toEqual([]);
      expect((await resolveOrganization(ctx)).key).toBe('main');
      // The next start agrees: retired, and nothing to change.
      expect(await applyStartConfig(ctx, null, 8080)).toMatchObject({ demoPushToken: null, demoRetired: true });
    });

    it('steps aside once the operator has an organization: paused, off the pages, not counted, then removable', async () => {
      opened = await dialect.open();
      const ctx = testContext(opened.store, { now: () => 1_000 });
      await applyStartConfig(ctx, null, 8080);
      const demo = await opened.store.organizations.findByKey('demo');
      // warden.yaml now names the operator's organization.
      const started = await applyStartConfig(ctx, OWN, 8080);
      expect(started).toMatchObject({ demoPushToken: null, demoRetired: true });
      expect((await opened.store.monitors.list(demo?.id ?? '')).every((m) => !m.enabled)).toBe(true);
      expect((await opened.store.monitors.list(demo?.id ?? '')).map((m) => m.key).sort()).toEqual([
        'demo-heartbeat',
        'demo-http',
        'demo-tcp',
      ]);
      expect((await opened.store.pages.list()).map((p) => p.slug)).toEqual([]);
      // The next start without a file leaves it retired, and loads no new token.
      expect(await applyStartConfig(ctx, null, 8080)).toMatchObject({
        syncReport: null,
        demoPushToken: null,
        demoRetired: true,
      });
      // No --org needed because of the demo.
      expect((await resolveOrganization(ctx)).key).toBe('ops');
      expect(await removeDemo(ctx)).toEqual({ wasAlone: false });
      expect(await opened.store.organizations.findByKey('demo')).toBeUndefined();
      await expect(removeDemo(ctx)).rejects.toThrow('the built-in demo is not there');
      expect(await applyStartConfig(ctx, null, 8080)).toMatchObject({ demoPushToken: null, demoRetired: false });
      expect(await opened.store.organizations.findByKey('demo')).toBeUndefined();
    });
  });
}
