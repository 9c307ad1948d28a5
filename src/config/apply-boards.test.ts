// Boards in warden.yaml: created on a page, left alone on re-apply, made to match the file, deleted when it drops them;
// the webhook URL read from the environment, an unknown component named where the file declares it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { listBoards } from '../services/boards/read.js';
import { createBoard } from '../services/boards/write.js';
import { applyConfig } from './apply.js';
import { ConfigError, parseConfigText } from './load.js';

const WEBHOOK = 'https://discord.com/api/webhooks/123456789/s3cret-token-abcdef';
const OTHER_WEBHOOK = 'https://discord.com/api/webhooks/987654321/other-token-abcdef';

const FILE = `
organization: { key: acme, name: Acme Network }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: Lobby, monitor: lobby }, { key: forum, name: Forum }]
    boards:
      - { key: status, webhookUrl: "\${DISCORD_WEBHOOK}" }
      - { key: games, kind: discord, webhookUrl: "\${DISCORD_WEBHOOK}", components: [Lobby], enabled: false }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`boards in warden.yaml on ${dialect.name}`, () => {
    let opened: OpenedStore;
    const ctx = (now: number) => testContext(opened.store, { now: () => now });
    const apply = (yaml: string, now: number, env: NodeJS.ProcessEnv = { DISCORD_WEBHOOK: WEBHOOK }) =>
      applyConfig(ctx(now), parseConfigText(yaml, 'test.yaml', env));
    const boards = async (organizationId: string) => listBoards({ ...ctx(0), organizationId }, { slug: 'acme' });
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('creates the boards of a page with the webhook from the environment, shown redacted', async () => {
      const report = await apply(FILE, 1000);
      expect(report.created).toEqual(expect.arrayContaining(['board acme/status', 'board acme/games']));
      const page = await opened.store.pages.findBySlug('acme');
      expect(report.touchedPageIds).toEqual([page?.id]);
      const views = await boards(report.organization.id);
      expect(views.map((b) => [b.key, b.kind, b.components, b.enabled, b.managedBy])).toEqual([
        ['games', 'discord', ['Lobby'], false, 'config'],
        ['status', 'discord', null, true, 'config'],
      ]);
      expect(views[0]?.webhookUrl).toBe('https://discord.com/api/webhooks/123456789/…');
      expect((await opened.store.boards.findByKey(page!.id, 'status'))?.webhookUrl).toBe(WEBHOOK);
      expect(views[0]?.message).toMatchObject({ id: null, stopped: false, lastError: null });
    });

    it('changes nothing when the same file is applied again', async () => {
      const first = await apply(FILE, 1000);
      const before = await boards(first.organization.id);
      const again = await apply(FILE, 2000);
      expect(again).toMatchObject({ created: [], updated: [], deleted: [], touchedPageIds: [] });
      expect(await boards(first.organization.id)).toEqual(before);
    });

    it('makes a board match the file, and deletes the one the file no longer lists', async () => {
      const first = await apply(FILE, 1000);
      const [games] = await boards(first.organization.id);
      const changed = FILE.replace('      - { key: status, webhookUrl: "${DISCORD_WEBHOOK}" }\n', '').replace(
        'components: [Lobby], enabled: false',
        'components: [forum, Lobby]',
      );
      const report = await apply(changed, 2000, { DISCORD_WEBHOOK: OTHER_WEBHOOK });
      expect(report.updated).toEqual(['board acme/games']);
      expect(report.deleted).toEqual(['board acme/status']);
      const views = await boards(first.organization.id);
      expect(views).toEqual([
        expect.objectContaining({
          id: games?.id,
          key: 'games',
          components: ['forum', 'Lobby'],
          enabled: true,
          webhookUrl: 'https://discord.com/api/webhooks/987654321/…',
        }),
      ]);
    });

    it('leaves a board added in the dashboard alone', async () => {
      const first = await apply(FILE, 1000);
      const api = { ...ctx(1500), organizationId: first.organization.id, writer: 'api' as const };
      await createBoard(api, { slug: 'acme', key: 'mine', kind: 'discord', webhookUrl: OTHER_WEBHOOK, enabled: true });
      const report = await apply(FILE.replace(/ {4}boards:\n(?: {6}.*\n)+/, ''), 2000);
      expect(report.deleted.sort()).toEqual(['board acme/games', 'board acme/status']);
      expect((await boards(first.organization.id)).map((b) => [b.key, b.managedBy])).toEqual([['mine', 'api']]);
    });

    it('names an unknown component, a repeated key and a URL that is not a Discord webhook where the file has them', () => {
      const broken = FILE.replace('components: [Lobby]', 'components: [Lobby, Nope]').replace(
        'key: status',
        'key: games',
      );
      const error = (() => {
        try {
          parseConfigText(broken, 'test.yaml', { DISCORD_WEBHOOK: 'https://example.com/hook' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^pages\[0\]\.boards\[0\]\.webhookUrl: expected a Discord webhook URL/),
        expect.stringMatching(/^pages\[0\]\.boards\[1\]\.webhookUrl: expected a Discord webhook URL/),
        'pages[0].boards[1].key: duplicate board key "games"',
        'pages[0].boards[1].components[1]: no component "Nope" on this page',
      ]);
    });
  });
}
