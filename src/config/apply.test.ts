// Applying warden.yaml: what it creates, idempotence, updates and deletions, takeover of API-made objects, and conflicts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { verifyPassword } from '../domain/passwords.js';
import { generateSecret, hashSecret } from '../domain/tokens.js';
import { createMonitor } from '../services/monitors/write.js';
import { applyConfig } from './apply.js';
import { parseConfigText } from './load.js';

const pushToken = generateSecret('pushToken');
const relayToken = generateSecret('relayToken');

const BASE = `
organization: { key: acme, name: Acme Network }
relays:
  - { key: lab, name: Home lab, token: "${relayToken}" }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: mc.example.com, port: 25565 } }
  - { key: proxy, name: Proxy, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.5, port: 25577 } }
  - { key: backup, name: Backup, type: heartbeat, pushToken: "${pushToken}", config: { graceSec: 120 } }
  - { key: other, name: Other, type: heartbeat }
pages:
  - slug: acme
    title: Acme
    password: hunter2-long
    components:
      - { name: Lobby, monitor: lobby, group: Minecraft }
      - { name: Backups, monitor: backup }
      - { name: Forum }
    incidents:
      - key: lag
        title: Lag
        impact: minor
        startedAt: "2026-11-01T18:00:00Z"
        components: [Lobby]
        updates: [{ at: "2026-11-01T18:05:00Z", status: investigating, message: Looking }]
    maintenance:
      - { key: switch, title: Switches, startsAt: "2027-01-10T02:00:00Z", endsAt: "2027-01-10T04:00:00Z", components: [Lobby, Forum] }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`applying warden.yaml on ${dialect.name}`, () => {
    let opened: OpenedStore;
    const store = () => opened.store;
    /** Applies the file as config sync does at this time. */
    const apply = (yaml: string, now: number) =>
      applyConfig(testContext(opened.store, { now: () => now }), parseConfigText(yaml, 'test.yaml', {}));
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('creates everything the file declares', async () => {
      const report = await apply(BASE, 1000);
      expect(report.organization).toMatchObject({ key: 'acme', name: 'Acme Network' });
      expect(report.created).toEqual(
        expect.arrayContaining([
          'relay lab',
          'monitor lobby',
          'monitor backup',
          'page acme',
          'component acme/Forum',
          'incident acme/lag',
          'maintenance acme/switch',
        ]),
      );
      // The generated token is in the report this once (only its hash is stored), and it works.
      expect(report.generatedPushTokens).toEqual([{ monitor: 'other', token: expect.stringMatching(/^wdp_/) }]);
      expect(
        (await store().monitors.findByPushTokenHash(hashSecret(report.generatedPushTokens[0]?.token ?? '')))?.key,
      ).toBe('other');

      const monitors = await store().monitors.list(report.organization.id);
      expect(monitors.map((m) => m.key)).toEqual(['backup', 'lobby', 'other', 'proxy']);
      const lobby = monitors.find((m) => m.key === 'lobby');
      expect(lobby).toMatchObject({
        type: 'minecraft-java',
        runOn: 'edge',
        intervalSec: 60,
        state: 'unknown',
        stateSince: 1000,
        managedBy: 'config',
      });
      const proxy = monitors.find((m) => m.key === 'proxy');
      expect(proxy?.relayId).toBe((await store().relays.findByKey(report.organization.id, 'lab'))?.id);

      expect((await store().monitors.findByPushTokenHash(hashSecret(pushToken)))?.key).toBe('backup');
      expect((await store().relays.findByTokenHash(hashSecret(relayToken)))?.key).toBe('lab');

      const page = await store().pages.findBySlug('acme');
      expect(page?.passwordHash && (await verifyPassword('hunter2-long', page.passwordHash))).toBe(true);
      const components = await store().components.list(page!.id);
      expect(components.map((c) => [c.name, c.group, c.order, c.monitorId !== null])).toEqual([
        ['Lobby', 'Minecraft', 0, true],
        ['Backups', null, 1, true],
        ['Forum', null, 2, false],
      ]);
      const [incident] = await store().incidents.list(page!.id);
      expect(incident).toMatchObject({
        title: 'Lag',
        impact: 'minor',
        status: 'investigating',
        startedAt: Date.parse('2026-11-01T18:00:00Z'),
      });
      expect(incident?.updates.map((u) => u.message)).toEqual(['Looking']);
      expect(incident?.componentIds).toEqual([components[0]?.id]);
      const [window] = await store().maintenance.list(page!.id);
      expect(window?.componentIds.sort()).toEqual([components[0]?.id, components[2]?.id].sort());
    });

    it('re-applies idempotently: same ids, nothing written, state kept', async () => {
      const first = await apply(BASE, 1000);
      const before = await store().monitors.list(first.organization.id);
      const second = await apply(BASE, 2000);
      expect(second.created).toEqual([]);
      expect(second.updated).toEqual([]);
      expect(second.deleted).toEqual([]);
      expect(second.touchedPageIds).toEqual([]);
      expect(second.generatedPushTokens).toEqual([]);
      const after = await store().monitors.list(first.organization.id);
      expect(after).toEqual(before);
      expect((await store().monitors.findByPushTokenHash(hashSecret(pushToken)))?.key).toBe('backup');
    });

    it('updates what changed and deletes what the file no longer lists', async () => {
      const first = await apply(BASE, 1000);
      const lobbyBefore = await store().monitors.findByKey(first.organization.id, 'lobby');
      const changed = BASE.replace('name: Lobby, type', 'name: Main lobby, type')
        .replace('port: 25565', 'port: 25566')
        .replace('  - { key: other, name: Other, type: heartbeat }\n', '')
        .replace('      - { name: Forum }\n', '')
        .replace('components: [Lobby, Forum]', 'components: [Lobby]')
        .replace('title: Lag', 'title: Lag spikes');
      const report = await apply(changed, 2000);
      expect(report.updated).toEqual(['monitor lobby', 'incident acme/lag']);
      expect(report.deleted).toEqual(expect.arrayContaining(['monitor other', 'component acme/Forum']));
      const lobby = await store().monitors.findByKey(first.organization.id, 'lobby');
      expect(lobby?.id).toBe(lobbyBefore?.id);
      expect(lobby).toMatchObject({
        name: 'Main lobby',
        config: { host: 'mc.example.com', port: 25566 },
        updatedAt: 2000,
      });
      expect(await store().monitors.findByKey(first.organization.id, 'other')).toBeUndefined();
      const page = await store().pages.findBySlug('acme');
      expect((await store().components.list(page!.id)).map((c) => c.name)).toEqual(['Lobby', 'Backups']);
      expect(report.touchedPageIds).toEqual([page!.id]);
    });

    it('leaves objects created through the API alone, and takes over those the file now declares', async () => {
      const first = await apply(BASE, 1000);
      const api = { ...testContext(store(), { now: () => 1500 }), organizationId: first.organization.id };
      const tcp = { type: 'tcp' as const, config: { host: 'x.example.com', port: 1 } };
      await createMonitor(api, { key: 'api-made', name: 'Made by API', ...tcp });
      const { monitor: adopted } = await createMonitor(api, { key: 'adopted', name: 'Made by API', ...tcp });
      const withAdopted = BASE.replace(
        'monitors:\n',
        'monitors:\n  - { key: adopted, name: Adopted, type: tcp, config: { host: y.example.com, port: 2 } }\n',
      );
      const report = await apply(withAdopted, 2000);
      expect(report.deleted).toEqual([]);
      expect(await store().monitors.findByKey(first.organization.id, 'api-made')).toMatchObject({
        managedBy: 'api',
        name: 'Made by API',
      });
      expect(await store().monitors.findByKey(first.organization.id, 'adopted')).toMatchObject({
        id: adopted.id,
        managedBy: 'config',
        name: 'Adopted',
      });
    });

    it('takes over no organization it did not create: one made through a sign-up or the API stops the apply, untouched', async () => {
      await store().organizations.upsert({ id: 'org_made', key: 'acme', name: 'Made by a sign-up' }, 500);
      const error = await apply(BASE, 1000).catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 409,
        message: expect.stringContaining('warden config apply --adopt acme'),
      });
      expect(await store().organizations.findByKey('acme')).toMatchObject({
        id: 'org_made',
        name: 'Made by a sign-up',
        managedBy: 'api',
      });
      expect(await store().monitors.list('org_made')).toEqual([]);
      expect(await store().pages.list('org_made')).toEqual([]);
    });

    it('adopts such an organization when told to, says so in its audit log, and applies it as its own from then on', async () => {
      await store().organizations.upsert({ id: 'org_made', key: 'acme', name: 'Made by a sign-up' }, 500);
      const ctx = testContext(opened.store, { now: () => 1000 });
      const report = await applyConfig(
        ctx,
        parseConfigText('organization: { key: acme, name: Acme Network }', 'test.yaml', {}),
        { adopt: true },
      );
      expect(report.organization).toMatchObject({ id: 'org_made', name: 'Acme Network', managedBy: 'config' });
      expect(report.adopted).toEqual({ members: [], activeApiKeys: 0 });
      expect(report.updated).toEqual(['organization acme']);
      const entries = await store().audit.list({ organizationId: 'org_made', limit: 10 });
      expect(entries.map((e) => [e.action, e.actorName, e.detail])).toContainEqual([
        'organization.adopt',
        'config',
        { members: 0, activeApiKeys: 0 },
      ]);
      // The file's now: later applies need no --adopt.
      const again = await apply('organization: { key: acme, name: Acme Network }', 2000);
      expect(again).toMatchObject({ adopted: null, updated: [] });
    });

    it('refuses a page slug that belongs to another organization, naming the page in the file', async () => {
      await apply(BASE, 1000);
      const rival = 'organization: { key: rival, name: Rival }\npages: [{ slug: acme, title: Mine now }]';
      await expect(apply(rival, 2000)).rejects.toThrow(
        'pages[0] (page acme): page slug "acme" belongs to another organization',
      );
      expect((await store().pages.findBySlug('acme'))?.title).toBe('Acme');
    });

    it('refuses a relay or push token already used elsewhere, naming the object in the file', async () => {
      await apply(BASE, 1000);
      const rival = `organization: { key: rival, name: Rival }\nrelays: [{ key: r, name: R, token: "${relayToken}" }]`;
      await expect(apply(rival, 2000)).rejects.toThrow(
        'relays[0] (relay r): the token of relay "r" is already used by another relay',
      );
      const rivalPush = `
organization: { key: rival, name: Rival }
monitors:
  - { key: beat, name: Beat, type: heartbeat }
  - { key: hb, name: HB, type: heartbeat, pushToken: "${pushToken}" }`;
      await expect(apply(rivalPush, 2000)).rejects.toThrow(
        'monitors[1] (monitor hb): the push token of monitor "hb" is already used by another monitor',
      );
      expect((await store().monitors.findByPushTokenHash(hashSecret(pushToken)))?.key).toBe('backup');
      expect((await store().relays.findByTokenHash(hashSecret(relayToken)))?.key).toBe('lab');
    });
  });
}
