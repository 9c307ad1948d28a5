// Two processes on one database, each with its own keeper and sender: every edit reaches Discord once. Both record
// the same edit (the store keeps one), both sweep at the same moment (one claims it), and a process that claimed an
// edit and died lets the other send it once the claim lapses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type FakeDiscord, startFakeDiscord } from '../../test/fakes/discord-webhook.js';
import { dialects } from '../../test/store-dialects.js';
import { composeWarden } from '../compose.js';
import { BOARD_LIMITS } from '../domain/board.js';
import { createLogger } from '../logger.js';
import { createBoard } from '../services/boards/write.js';
import type { Store } from '../store/index.js';
import { openStore } from '../store/open-store.js';

const CONFIG = `
organization: { key: acme, name: Acme, probePrivateTargets: allow }
pages:
  - { slug: main, title: Acme Games, components: [{ key: lobby, name: Lobby }] }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a board's edits from two processes on ${dialect.name}`, () => {
    let h: Harness;
    let otherStore: Store;
    let other: ReturnType<typeof composeWarden>;
    let discord: FakeDiscord;
    let boardId: string;

    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      const env = h.opened.env;
      otherStore = await openStore({
        dataDir: env.WARDEN_DATA_DIR ?? '.',
        ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, databaseSchema: env.DATABASE_SCHEMA } : {}),
      });
      other = composeWarden({
        store: otherStore,
        clock: h.clock,
        logger: createLogger('silent'),
        baseUrl: () => 'http://warden.test',
      });
      await other.pages.start();
      discord = await startFakeDiscord({ now: () => h.clock.now() });
      const ctx = { ...h.context, organizationId: h.organizationId };
      boardId = (await createBoard(ctx, { slug: 'main', key: 'community', webhookUrl: discord.webhookUrl })).id;
    });
    afterAll(async () => {
      await other?.pages.stop();
      await otherStore?.close();
      await h?.close();
      await discord?.close();
    });

    it('posts the message once when both record and both send at the same moment', async () => {
      const recorded = await Promise.all([h.boards.sweep(), other.boards.sweep()]);
      expect(recorded.map((r) => r.recorded).reduce((a, b) => a + b)).toBe(1);
      h.clock.advance(BOARD_LIMITS.settleMs + 1);
      const sent = await Promise.all([h.boards.sweep(), other.boards.sweep()]);
      expect(sent.map((r) => r.shown).reduce((a, b) => a + b)).toBe(1);
      expect(discord.requests.map((r) => r.method)).toEqual(['POST']);
      expect(discord.messages.size).toBe(1);
    });

    it('sends an edit whose claimer died once the claim lapses, and only then', async () => {
      const edit = { embeds: [{ title: 'edited' }] };
      h.clock.advance(BOARD_LIMITS.minEditIntervalMs + 1);
      expect(await h.opened.store.boards.setPending(boardId, edit, 'hash-edited', h.clock.now())).toBe(true);
      // A process claims it and dies before sending.
      expect(await h.opened.store.boards.claimDue(h.clock.now(), 10)).toHaveLength(1);
      const before = discord.requests.length;
      h.clock.advance(BOARD_LIMITS.claimMs - 1_000);
      await other.boards.sweep();
      expect(discord.requests.length).toBe(before);
      h.clock.advance(2_000);
      await other.boards.sweep();
      expect(discord.requests.slice(before).map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);
      expect(discord.latest()?.body.embeds?.[0]?.title).toBe('edited');
    });
  });
}
