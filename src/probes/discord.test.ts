// The discord monitor against a fake Discord API: the guild widget and a bot's view of the guild.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DiscordFakeState, startDiscordFake } from '../../test/fakes/game-api-fakes.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import type { FakeServer } from '../../test/fakes/http-fakes.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { discord } from './discord.js';

const BOT_TOKEN = 'MTA5ODc2NTQzMjEwOTg3NjU0.Fake01.bot-token-that-must-never-leak';
const OPEN = '111111111111111111';
const CLOSED = '222222222222222222';
const HIDDEN = '333333333333333333';
const UNKNOWN = '999999999999999999';

let api: FakeServer & { state: DiscordFakeState; apiBaseUrl: string };

beforeAll(async () => {
  api = await startDiscordFake({ botToken: BOT_TOKEN, guilds: {} });
});
afterAll(() => api.close());
beforeEach(() => {
  api.state.override = undefined;
  api.state.guilds = {
    [OPEN]: {
      name: 'Warden Gaming',
      widgetEnabled: true,
      presenceCount: 42,
      memberCount: 1234,
      instantInvite: 'https://discord.gg/abc',
      botIsMember: true,
    },
    [CLOSED]: {
      name: 'Quiet Place',
      widgetEnabled: false,
      presenceCount: 3,
      memberCount: 10,
      instantInvite: null,
      botIsMember: true,
    },
    [HIDDEN]: {
      name: 'Elsewhere',
      widgetEnabled: true,
      presenceCount: 7,
      memberCount: 70,
      instantInvite: null,
      botIsMember: false,
    },
  };
});

const config = (extra: Record<string, unknown>) => ({ guildId: OPEN, apiBaseUrl: api.apiBaseUrl, ...extra });
const bot = (extra: Record<string, unknown> = {}) => config({ mode: 'bot', botToken: BOT_TOKEN, ...extra });

const check = (raw: Record<string, unknown>, timeoutMs = 1500) => probeDirectly(discord, raw, timeoutMs);
const run = (raw: Record<string, unknown>, timeoutMs = 1500) => runThrough(discord, raw, timeoutMs);

describe('discord probe, widget mode', () => {
  it('reports the guild name, who is online and whether there is an invite', async () => {
    const result = await check(config({}));
    expect(result).toMatchObject({
      ok: true,
      message: '42 online',
      data: { name: 'Warden Gaming', players: 42, instantInvite: true },
    });
    expect(api.requests.at(-1)?.path).toBe(`/api/v10/guilds/${OPEN}/widget.json`);
    expect(api.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('says when the widget is disabled', async () => {
    expect(await check(config({ guildId: CLOSED }))).toEqual({ ok: false, error: "the guild's widget is disabled" });
  });

  it('says when the guild does not exist', async () => {
    expect(await check(config({ guildId: UNKNOWN }))).toEqual({ ok: false, error: 'guild not found (check guildId)' });
  });

  it('is degraded below minPlayers', async () => {
    expect(await check(config({ minPlayers: 50 }))).toMatchObject({
      ok: true,
      degraded: true,
      message: '42 online (fewer than 50)',
    });
  });

  it('fails plainly on an answer that is not the widget', async () => {
    api.state.override = { misbehave: 'not-json' };
    expect(await check(config({}))).toEqual({ ok: false, error: 'the widget answer has no presence count' });
    api.state.override = { misbehave: 'endless' };
    expect(await check(config({}))).toEqual({ ok: false, error: "Discord's answer is larger than 1 MiB" });
    expect(await check(bot())).toEqual({ ok: false, error: "Discord's answer is larger than 1 MiB" });
  });
});

describe('discord probe, bot mode', () => {
  it('reports members and presences with the Bot authorization', async () => {
    const result = await check(bot());
    expect(result).toMatchObject({
      ok: true,
      message: '42 online, 1234 members',
      data: { name: 'Warden Gaming', players: 42, members: 1234 },
    });
    const seen = api.requests.at(-1);
    expect(seen?.path).toBe(`/api/v10/guilds/${OPEN}?with_counts=true`);
    expect(seen?.headers.authorization).toBe(`Bot ${BOT_TOKEN}`);
  });

  it('says the token was rejected', async () => {
    expect(await check(bot({ botToken: 'wrong-token' }))).toEqual({ ok: false, error: 'the bot token was rejected' });
  });

  it('says the bot cannot see a guild it is not in, or that does not exist', async () => {
    expect(await check(bot({ guildId: HIDDEN }))).toEqual({ ok: false, error: 'the bot cannot see this guild' });
    expect(await check(bot({ guildId: UNKNOWN }))).toEqual({ ok: false, error: 'the bot cannot see this guild' });
  });

  it('is degraded below minPlayers', async () => {
    expect(await check(bot({ minPlayers: 100 }))).toMatchObject({ ok: true, degraded: true });
  });

  it('needs a token in bot mode', async () => {
    expect(await run(config({ mode: 'bot' }))).toEqual({
      ok: false,
      error: 'invalid config: required when mode is bot',
    });
  });

  it('never puts the bot token in a result', async () => {
    const results = [
      await run(bot()),
      await run(bot({ guildId: HIDDEN })),
      await check(bot()),
      await check(bot({ guildId: UNKNOWN })),
    ];
    api.state.override = { misbehave: 'hang' };
    results.push(await run(bot(), 300), await check(bot(), 300));
    api.state.override = { message: `echoing Bot ${BOT_TOKEN}`, code: 0 };
    results.push(await run(bot()));
    for (const result of results) expect(JSON.stringify(result)).not.toContain(BOT_TOKEN);
  });
});

describe('discord probe, failures shared by both modes', () => {
  it('times out on an API that hangs or trickles', async () => {
    api.state.override = { misbehave: 'hang' };
    expect(await check(config({}), 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    api.state.override = { misbehave: 'trickle' };
    expect(await run(bot(), 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('says the connection was refused when nothing listens', async () => {
    const closed = await startDiscordFake({ botToken: BOT_TOKEN, guilds: {} });
    await closed.close();
    expect(await check(config({ apiBaseUrl: closed.apiBaseUrl }))).toEqual({ ok: false, error: 'connection refused' });
  });

  it('runs through runProbe', async () => {
    expect(await run(config({}))).toMatchObject({ ok: true, data: { players: 42 } });
    expect(await run(bot())).toMatchObject({ ok: true, data: { members: 1234 } });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await check(config({}));
    await check(bot());
    api.state.override = { misbehave: 'hang' };
    await check(bot(), 300);
    expect(await leakedResources(before)).toEqual({});
  });
});
