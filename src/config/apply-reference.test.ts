// A file that names its organization by key alone: it adds to one made in the dashboard, and manages none of its fields.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createMonitor } from '../services/monitors/write.js';
import { renameOrganization } from '../services/organizations/current.js';
import { applyConfig } from './apply.js';
import { parseConfigText } from './load.js';

const FILE = `
organization: { key: acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
pages:
  - { slug: acme, title: Acme, components: [{ name: Lobby, monitor: lobby }] }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a file naming its organization by key alone, on ${dialect.name}`, () => {
    let opened: OpenedStore;
    const apply = (yaml: string, now: number) =>
      applyConfig(testContext(opened.store, { now: () => now }), parseConfigText(yaml, 'test.yaml', {}));
    beforeEach(async () => {
      opened = await dialect.open();
      // Made by a sign-up: the dashboard's.
      await opened.store.organizations.upsert({ id: 'org_made', key: 'acme', name: 'Acme from the dashboard' }, 500);
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('adds its monitors and pages to it, takes nothing over, and the dashboard can still rename it', async () => {
      const report = await apply(FILE, 1000);
      expect(report.adopted).toBeNull();
      expect(report.created).toEqual(expect.arrayContaining(['monitor lobby', 'page acme']));
      expect(report.created).not.toContain('organization acme');
      expect(await opened.store.organizations.findByKey('acme')).toMatchObject({
        id: 'org_made',
        name: 'Acme from the dashboard',
        managedBy: 'api',
      });
      expect(await opened.store.monitors.findByKey('org_made', 'lobby')).toMatchObject({ managedBy: 'config' });

      const dashboard = {
        ...testContext(opened.store, { now: () => 2000 }),
        organizationId: 'org_made',
        writer: 'api' as const,
      };
      expect(await renameOrganization(dashboard, { name: 'Acme, renamed' })).toMatchObject({ name: 'Acme, renamed' });

      // Applied again, the file changes nothing of the organization: the dashboard's name stays.
      const again = await apply(FILE, 3000);
      expect(again.created).toEqual([]);
      expect(again.updated).toEqual([]);
      expect(await opened.store.organizations.findByKey('acme')).toMatchObject({ name: 'Acme, renamed' });
    });

    it('still manages what it declares: a monitor it no longer lists is deleted, one made in the dashboard stays', async () => {
      await apply(FILE, 1000);
      const dashboard = { ...testContext(opened.store), organizationId: 'org_made', writer: 'api' as const };
      const tcp = { type: 'tcp', config: { host: 'db.example.com', port: 5432 } } as const;
      await createMonitor(dashboard, { key: 'made-here', name: 'Made in the dashboard', ...tcp });
      const report = await apply('organization: { key: acme }\n', 2000);
      expect(report.deleted).toEqual(expect.arrayContaining(['monitor lobby', 'page acme']));
      expect(await opened.store.organizations.findByKey('acme')).toMatchObject({ id: 'org_made' });
      expect((await opened.store.monitors.list('org_made')).map((m) => m.key)).toEqual(['made-here']);
    });

    it('says how to create the organization when none has the key', async () => {
      const error = await apply('organization: { key: elsewhere }\n', 1000).catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 400,
        issues: [{ path: 'organization.name', message: expect.stringContaining('give a name to create it') }],
      });
      expect(await opened.store.organizations.findByKey('elsewhere')).toBeUndefined();
    });

    it('refuses a probe-target policy without the name: that field belongs to a managed organization', () => {
      expect(() =>
        parseConfigText('organization: { key: acme, probePrivateTargets: allow }\n', 'test.yaml', {}),
      ).toThrow(/organization\.name: probePrivateTargets is a field of the organization the file manages/);
    });
  });
}
