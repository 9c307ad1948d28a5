// Discord boards against a fake Discord with the webhook API's semantics: one message posted, then edited in place
// through a server's down, a player change, an incident and its recovery; posted again after a moderator deleted it;
// a 429's retry_after waited; nothing sent while nothing changed; a deleted webhook stops the board. The clock is the
// harness's, so the settle and the minimum interval between edits are stepped over, not slept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type FakeDiscord, startFakeDiscord } from '../../test/fakes/discord-webhook.js';
import { dialects } from '../../test/store-dialects.js';
import { until } from '../../test/until.js';
import { BOARD_LIMITS } from '../domain/board.js';
import { getBoard } from '../services/boards/read.js';
import { createBoard, updateBoard } from '../services/boards/write.js';
import { createIncident } from '../services/incidents/write.js';

const TOKEN = 'wdp_boardLobbyHeartbeatToken01';
const CONFIG = `
organization: { key: acme, name: Acme, probePrivateTargets: allow }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 86400 } }
pages:
  - slug: main
    title: Acme Games
    components:
      - { key: lobby, name: Lobby, monitor: lobby }
      - { key: forum, name: Forum }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`Discord boards on ${dialect.name}`, () => {
    let h: Harness;
    let discord: FakeDiscord;
    let boardId: string;
    const ctx = () => ({ ...h.context, organizationId: h.organizationId });

    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      discord = await startFakeDiscord({ now: () => h.clock.now() });
      await push('status=up&players=3&maxPlayers=20');
    });
    afterAll(async () => {
      await h?.close();
      await discord?.close();
    });

    /** A heartbeat as a game server's script sends it: a JSON body with the players. */
    async function push(query: string): Promise<void> {
      const body = Object.fromEntries(
        [...new URLSearchParams(query)].map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]),
      );
      const res = await h.request(`/api/push/${TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    }
    /** Waits for the page's snapshot to show it, as the keeper will read it. */
    async function shown(what: string, check: (lobby: { state: string; players: number | null }) => boolean) {
      const page = h.pages.pageBySlug('main');
      if (!page) throw new Error('no page main');
      await until(
        what,
        async () => {
          const lobby = (await h.pages.get(page)).snapshot.components[0];
          return lobby && check({ state: lobby.state, players: lobby.live?.players ?? null });
        },
        5_000,
      );
    }
    /** Past the settle and the minimum interval, a keeper pass and a send pass. */
    async function step() {
      h.clock.advance(BOARD_LIMITS.minEditIntervalMs + 1);
      const first = await h.boards.sweep();
      h.clock.advance(BOARD_LIMITS.settleMs + 1);
      const second = await h.boards.sweep();
      return { recorded: first.recorded + second.recorded, shown: first.shown + second.shown };
    }
    const embed = () => discord.latest()?.body.embeds?.[0];
    const lobbyField = () => embed()?.fields.find((f) => f.name === 'Lobby')?.value ?? '';

    it('posts one message showing the page, its servers and the players online', async () => {
      await shown('3 players', (l) => l.players === 3);
      const board = await createBoard(ctx(), { slug: 'main', key: 'community', webhookUrl: discord.webhookUrl });
      boardId = board.id;
      expect(board.webhookUrl).not.toContain('Xy-aBcDeF');
      // Recorded, then held for the settle: nothing is sent at once.
      expect(await h.boards.sweep()).toEqual({ recorded: 1, shown: 0 });
      expect(await step()).toEqual({ recorded: 0, shown: 1 });
      expect(discord.messages.size).toBe(1);
      expect(discord.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200']);
      expect(embed()).toMatchObject({ title: 'Acme Games', color: 0x2ecc71 });
      expect(lobbyField()).toContain('🟢 Operational');
      expect(lobbyField()).toContain('👥 3/20');
      expect(embed()?.description).toContain('**3 / 20** players online');
      expect((await getBoard(ctx(), { slug: 'main', id: boardId })).message).toMatchObject({
        id: discord.latest()?.id,
        pending: false,
        stopped: false,
      });
    });

    it('edits that message, and only when what it shows changed', async () => {
      const id = discord.latest()?.id;
      expect(await step()).toEqual({ recorded: 0, shown: 0 });
      await push('status=down&msg=crashed');
      await shown('the lobby down', (l) => l.state === 'down');
      await step();
      expect(discord.messages.size).toBe(1);
      expect(discord.latest()).toMatchObject({ id, edits: 1 });
      expect(lobbyField()).toContain('🔴 Down');
      expect(embed()?.color).toBe(0xe74c3c);
      await push('status=up&players=7&maxPlayers=20');
      await shown('7 players', (l) => l.players === 7);
      await step();
      expect(discord.latest()).toMatchObject({ id, edits: 2 });
      expect(lobbyField()).toContain('👥 7/20');
    });

    it('shows the active incident and its latest update', async () => {
      await createIncident(ctx(), {
        slug: 'main',
        title: 'Lobby restarts',
        message: 'We are looking into **crashes** on join.',
        components: ['lobby'],
      });
      await until('the incident recorded', async () => (await h.boards.sweep()).recorded > 0 || undefined, 5_000);
      await step();
      expect(embed()?.description).toContain('⚠️ **Lobby restarts** — investigating');
      expect(embed()?.description).toContain('> We are looking into \\*\\*crashes\\*\\* on join.');
    });

    it('posts a new message when a moderator deleted it, and keeps editing that one', async () => {
      const old = discord.latest()?.id as string;
      discord.deleteMessage(old);
      await push('status=up&players=8&maxPlayers=20');
      await shown('8 players', (l) => l.players === 8);
      await step();
      const fresh = discord.latest();
      expect(fresh?.id).not.toBe(old);
      expect(discord.requests.slice(-2).map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 404', 'POST 200']);
      expect((await getBoard(ctx(), { slug: 'main', id: boardId })).message.id).toBe(fresh?.id);
      await push('status=up&players=9&maxPlayers=20');
      await shown('9 players', (l) => l.players === 9);
      await step();
      expect(discord.latest()).toMatchObject({ id: fresh?.id, edits: 1 });
    });

    it("waits a 429's retry_after, then sends the latest", async () => {
      discord.rateLimit(1, 3);
      await push('status=up&players=10&maxPlayers=20');
      await shown('10 players', (l) => l.players === 10);
      await step();
      expect(discord.requests.at(-1)?.status).toBe(429);
      const sent = discord.requests.length;
      h.clock.advance(2_000);
      await h.boards.sweep();
      expect(discord.requests.length).toBe(sent);
      h.clock.advance(1_100);
      await h.boards.sweep();
      expect(discord.requests.at(-1)?.status).toBe(200);
      expect(lobbyField()).toContain('👥 10/20');
    });

    it('stops on a deleted webhook, says why, and tries again once the board is changed', async () => {
      discord.deleteWebhook();
      await push('status=up&players=11&maxPlayers=20');
      await shown('11 players', (l) => l.players === 11);
      await step();
      const board = await getBoard(ctx(), { slug: 'main', id: boardId });
      expect(board.message).toMatchObject({ stopped: true });
      expect(board.message.lastError).toContain('Unknown Webhook');
      const sent = discord.requests.length;
      await push('status=up&players=12&maxPlayers=20');
      await shown('12 players', (l) => l.players === 12);
      await step();
      expect(discord.requests.length).toBe(sent);
      const changed = await updateBoard(ctx(), { slug: 'main', id: boardId, components: ['lobby'] });
      expect(changed.message).toMatchObject({ stopped: false, lastError: null });
      expect(changed.components).toEqual(['lobby']);
    });
  });
}
