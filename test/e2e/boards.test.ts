// A Discord board from a real `warden serve` process: the message posted once the server is up, edited when a game
// server goes down, and an edit pending at a kill -9 (Discord failing, its retry waiting) delivered after the restart,
// into the same message — one message throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard } from '../../src/services/boards/write.js';
import type { Store } from '../../src/store/index.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-webhook.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';
import { until } from '../until.js';

const TOKEN = 'wdp_boardEndToEndHeartbeat0123';
const sqlite = dialects.find((d) => d.name === 'sqlite');

describe.skipIf(!sqlite)('a Discord board from a real server process', () => {
  let opened: OpenedStore;
  let store: Store;
  let server: ServerProcess | undefined;
  let discord: FakeDiscord;
  let boardId: string;

  const start = async () => {
    server = await startServer([], { ...opened.env, WARDEN_PROBE_PRIVATE_TARGETS: 'allow' });
  };
  const push = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server?.url}/api/push/${TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  };
  const lobby = () => discord.latest()?.body.embeds?.[0]?.fields.find((f) => f.name === 'Lobby')?.value ?? '';

  beforeAll(async () => {
    discord = await startFakeDiscord();
    opened = await (sqlite as NonNullable<typeof sqlite>).open();
    store = opened.store;
    const { report } = await seed(
      store,
      `
organization: { key: acme, name: Acme Games, probePrivateTargets: allow }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 86400 } }
pages:
  - { slug: main, title: Acme Games, components: [{ key: lobby, name: Lobby, monitor: lobby }] }
`,
      Date.now(),
    );
    const ctx = { ...testContext(store, { now: () => Date.now() }), organizationId: report.organization.id };
    boardId = (await createBoard(ctx, { slug: 'main', key: 'community', webhookUrl: discord.webhookUrl })).id;
    await start();
  }, scaled(30_000));
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await discord?.close();
    await opened?.cleanup();
  });

  it('posts the message, then edits it when the server goes down', { timeout: scaled(40_000) }, async () => {
    await push({ status: 'up', players: 4, maxPlayers: 40 });
    await until('the message with 4 players', () => lobby().includes('👥 4/40'), 15_000);
    expect(discord.messages.size).toBe(1);
    await push({ status: 'down', msg: 'crashed' });
    await until('the edit to down', () => lobby().includes('🔴 Down'), 15_000);
    expect(discord.messages.size).toBe(1);
  });

  it('delivers an edit pending at a kill -9 after the restart, into the same message', {
    timeout: scaled(45_000),
  }, async () => {
    const id = discord.latest()?.id;
    discord.fail(true);
    await push({ status: 'up', players: 9, maxPlayers: 40 });
    // Tried and failed, its retry waiting: the edit is stored, not sent.
    await until(
      'the edit pending, its retry ahead',
      async () => {
        const delivery = await store.boards.delivery(boardId);
        return delivery && delivery.attempts > 0 && (delivery.dueAt ?? 0) - Date.now() > 1_000;
      },
      15_000,
    );
    await server?.stop('SIGKILL');
    discord.fail(false);
    await start();
    await until('the edit after the restart', () => lobby().includes('👥 9/40'), 20_000);
    expect(discord.messages.size).toBe(1);
    expect(discord.latest()?.id).toBe(id);
    expect(lobby()).toContain('🟢 Operational');
  });
});
