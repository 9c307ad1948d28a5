import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Receiver, startReceiver } from '../../test/fakes/notify-receivers.js';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { keysCommand } from './commands/keys.js';
import { monitorsCommand } from './commands/monitors.js';
import { notificationsCommand } from './commands/notifications.js';
import { relaysCommand } from './commands/relays.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the CLI's writes in the audit log on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let receiver: Receiver;
    let organizationId: string;
    const saved = { ...process.env };
    let stdout = '';

    beforeEach(async () => {
      opened = await dialect.open();
      receiver = await startReceiver({ status: 204 });
      const { report } = await seed(
        opened.store,
        `
organization: { key: acme, name: Acme }
relays: [{ key: cellar, name: Cellar }]
monitors: [{ key: cron, name: Cron, type: heartbeat, config: { graceSec: 60 } }]
notifications: [{ key: ops, name: Ops, type: webhook, config: { url: "${receiver.url}/hook", secret: "${SECRET}" } }]
`,
        1000,
      );
      organizationId = report.organization.id;
      // The commands open the store the environment names, as `warden` does.
      Object.assign(process.env, opened.env, { LOG_LEVEL: 'silent' });
      stdout = '';
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        stdout += String(chunk);
        return true;
      });
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      process.env = { ...saved };
      await receiver.close();
      await opened.cleanup();
    });

    const run = (
      command: { parseAsync(args: string[], options: { from: 'user' }): Promise<unknown> },
      ...args: string[]
    ) => command.parseAsync(args, { from: 'user' });

    it('records keys, tokens and channel tests made with `warden` as the CLI, naming no secret', async () => {
      await run(keysCommand(), 'create', '--name', 'deploy', '--scope', 'write');
      const [key] = await opened.store.apiKeys.list(organizationId);
      await run(keysCommand(), 'revoke', key?.id as string);
      await run(monitorsCommand(), 'token', 'cron');
      await run(relaysCommand(), 'token', 'cellar');
      await run(notificationsCommand(), 'test', 'ops');
      expect(stdout).toMatch(/^wdn_/);

      const entries = await opened.store.audit.list({ organizationId, limit: 20, actorId: 'cli' });
      expect(entries.map((e) => [e.action, e.objectLabel]).reverse()).toEqual([
        ['api-key.create', 'deploy'],
        ['api-key.revoke', 'deploy'],
        ['monitor.rotate-push-token', 'cron'],
        ['relay.rotate-token', 'cellar'],
        ['notification-channel.test', 'ops'],
      ]);
      for (const entry of entries) expect(entry).toMatchObject({ actorKind: 'system', actorName: 'cli' });
      expect(entries[0]?.detail).toEqual({ outcome: 'sent' });
      expect(entries[0]?.objectId).toMatch(/^nch_/);
      expect(JSON.stringify(entries)).not.toMatch(/wd[nrp]_|whsec_/);
    });
  });
}
