// warden.yaml's notifications: created, updated and deleted by config sync through the channel verbs, secrets from ${ENV}.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { ConflictError } from '../domain/errors.js';
import { createChannel, updateChannel } from '../services/notifications/write.js';
import { applyConfig } from './apply.js';
import { parseConfigText } from './load.js';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const ENV = { HOOK_SECRET: SECRET, DISCORD_URL: 'https://discord.com/api/webhooks/1/abc' };
const file = (notifications: string) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
notifications:
${notifications}`;
const BOTH = file(`
  - { key: ops, name: Ops hook, type: webhook, config: { url: "https://hooks.example.com/warden", secret: "\${HOOK_SECRET}" }, rules: { events: [monitor.down, monitor.recovered], monitors: [lobby] } }
  - { key: players, name: Players, type: discord, config: { url: "\${DISCORD_URL}" }, enabled: false }
`);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden.yaml notifications on ${dialect.name}`, () => {
    let opened: OpenedStore;
    const apply = (yaml: string, now = 1000) =>
      applyConfig(testContext(opened.store, { now: () => now }), parseConfigText(yaml, 'test.yaml', ENV));
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('creates the channels the file declares, managed by it, with secrets from the environment', async () => {
      const report = await apply(BOTH);
      expect(report.created).toEqual(expect.arrayContaining(['notification ops', 'notification players']));
      const channels = await opened.store.channels.list(report.organization.id);
      expect(channels.map((c) => [c.key, c.type, c.enabled, c.managedBy])).toEqual([
        ['ops', 'webhook', true, 'config'],
        ['players', 'discord', false, 'config'],
      ]);
      expect(channels[0]).toMatchObject({
        config: { secret: SECRET },
        rules: { events: ['monitor.down', 'monitor.recovered'], monitors: ['lobby'] },
      });
      expect((await apply(BOTH)).unchanged).toBeGreaterThanOrEqual(2);
    });

    it('updates a changed channel, deletes one no longer listed, and the API cannot change what the file manages', async () => {
      const { organization } = await apply(BOTH);
      const ctx = { ...testContext(opened.store, { now: () => 2000 }), organizationId: organization.id };
      await expect(updateChannel(ctx, { key: 'ops', name: 'Mine' })).rejects.toBeInstanceOf(ConflictError);
      const report = await apply(
        file(`
  - { key: ops, name: Ops renamed, type: webhook, config: { url: "https://hooks.example.com/warden", secret: "\${HOOK_SECRET}" } }
`),
        3000,
      );
      expect(report.updated).toContain('notification ops');
      expect(report.deleted).toContain('notification players');
      const channels = await opened.store.channels.list(organization.id);
      expect(channels.map((c) => [c.key, c.name, c.rules])).toEqual([['ops', 'Ops renamed', {}]]);
    });

    it("takes over an API channel the file now declares, and leaves the API's others alone", async () => {
      const { organization } = await apply(file('  []'));
      const ctx = { ...testContext(opened.store, { now: () => 2000 }), organizationId: organization.id };
      await createChannel(ctx, {
        key: 'ops',
        name: 'Ops',
        type: 'webhook',
        config: { url: 'https://a.example/h', secret: SECRET },
      });
      await createChannel(ctx, {
        key: 'mine',
        name: 'Mine',
        type: 'ntfy',
        config: { url: 'https://ntfy.sh/warden-test' },
      });
      const report = await apply(BOTH);
      expect(report.updated).toContain('notification ops');
      const channels = await opened.store.channels.list(organization.id);
      expect(channels.map((c) => [c.key, c.managedBy])).toEqual([
        ['mine', 'api'],
        ['ops', 'config'],
        ['players', 'config'],
      ]);
    });

    it('stores the channels monitors and pages name, created before them, and changes them with the file', async () => {
      const named = (monitorNotify: string, pageNotify: string) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, notify: ${monitorNotify}, config: { host: mc.example.com, port: 25565 } }
pages:
  - { slug: status, title: Status, notify: ${pageNotify} }
notifications:
  - { key: ops, name: Ops, type: ntfy, config: { url: "https://ntfy.sh/warden-ops" } }
  - { key: oncall, name: On call, type: ntfy, config: { url: "https://ntfy.sh/warden-oncall" } }
`;
      const { organization } = await apply(named('[ops]', '[ops, oncall]'));
      expect((await opened.store.monitors.findByKey(organization.id, 'lobby'))?.notify).toEqual(['ops']);
      expect((await opened.store.pages.findBySlug('status'))?.notify).toEqual(['ops', 'oncall']);
      expect((await apply(named('[ops]', '[ops, oncall]'))).updated).toEqual([]);
      const report = await apply(named('[oncall]', '[]'));
      expect(report.updated).toEqual(['monitor lobby', 'page status']);
      expect((await opened.store.monitors.findByKey(organization.id, 'lobby'))?.notify).toEqual(['oncall']);
      expect((await opened.store.pages.findBySlug('status'))?.notify).toBeNull();
    });

    it('refuses a file whose monitor or page names a channel it does not declare', () => {
      const yaml = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, notify: [ops, pager], config: { host: mc.example.com, port: 25565 } }
pages:
  - { slug: status, title: Status, notify: [nope] }
notifications:
  - { key: ops, name: Ops, type: ntfy, config: { url: "https://ntfy.sh/warden-ops" } }
`;
      expect(() => parseConfigText(yaml, 'test.yaml', ENV)).toThrow(
        /monitors\[0\]\.notify\[1\]: no notification channel with key "pager"/,
      );
      expect(() => parseConfigText(yaml, 'test.yaml', ENV)).toThrow(
        /pages\[0\]\.notify\[0\]: no notification channel with key "nope"/,
      );
    });

    it('names the place in the file of a wrong channel', () => {
      expect(() =>
        parseConfigText(
          file('  - { key: x, name: X, type: webhook, config: { url: "nope", secret: "s" } }'),
          'test.yaml',
          ENV,
        ),
      ).toThrow(/notifications\[0\]\.config\.url/);
      expect(() =>
        parseConfigText(
          file(
            '  - { key: x, name: X, type: ntfy, config: { url: "https://ntfy.sh/a" } }\n  - { key: x, name: Y, type: ntfy, config: { url: "https://ntfy.sh/b" } }',
          ),
          'test.yaml',
          ENV,
        ),
      ).toThrow(/duplicate notification channel key/);
    });
  });
}
