// The fivem monitor against a fake FXServer's /dynamic.json, /info.json and /players.json.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FivemFakeState, fivemServerState, startFivemFake } from '../../test/fakes/game-api-fakes.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import type { FakeServer } from '../../test/fakes/http-fakes.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { fivem, stripColourCodes } from './fivem.js';

let server: FakeServer & { state: FivemFakeState };

beforeAll(async () => {
  server = await startFivemFake();
});
afterAll(() => server.close());
beforeEach(() => {
  Object.assign(server.state, fivemServerState());
});

const config = (extra: Record<string, unknown>) => ({ host: '127.0.0.1', port: server.port, ...extra });
const check = (extra: Record<string, unknown> = {}, timeoutMs = 1500) => probeDirectly(fivem, config(extra), timeoutMs);
const run = (extra: Record<string, unknown> = {}, timeoutMs = 1500) => runThrough(fivem, config(extra), timeoutMs);

describe('fivem probe', () => {
  it('reports players, slots, name, game type, map and version', async () => {
    const result = await check();
    expect(result).toMatchObject({
      ok: true,
      message: '2/48 players, v1.0.0.7290',
      data: {
        players: 2,
        maxPlayers: 48,
        hostname: 'Warden Test RP',
        gametype: 'Freeroam',
        map: 'Los Santos',
        version: 'v1.0.0.7290',
        resources: 4,
      },
    });
    expect(result.degraded).toBeFalsy();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reports the cfx.re join code when info.json shares its web_baseUrl', async () => {
    const info = fivemServerState().info as { vars: Record<string, unknown> };
    server.state.info = { ...info, vars: { ...info.vars, web_baseUrl: 'warden-abc123.users.cfx.re' } };
    expect(await check()).toMatchObject({ ok: true, data: { joinCode: 'abc123' } });
    server.state.info = { ...info, vars: { ...info.vars, web_baseUrl: 'example.com' } };
    expect((await check()).data).not.toHaveProperty('joinCode');
  });

  it('asks all three endpoints', async () => {
    const before = server.requests.length;
    await check();
    expect(
      server.requests
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/dynamic.json', '/info.json', '/players.json']);
  });

  it('is up on info.json alone, counting players.json', async () => {
    server.state.dynamic = { misbehave: 'missing' };
    expect(await check()).toMatchObject({
      ok: true,
      data: { players: 2, maxPlayers: 48, hostname: 'Warden Test', version: 'v1.0.0.7290' },
    });
  });

  it('is up on dynamic.json alone', async () => {
    server.state.info = { misbehave: 'not-json' };
    const result = await check();
    expect(result).toMatchObject({ ok: true, message: '2/48 players', data: { players: 2, maxPlayers: 48 } });
    expect(result.data).not.toHaveProperty('version');
  });

  it('does not wait for a slow players.json once dynamic.json has the count', async () => {
    server.state.players = { misbehave: 'hang' };
    const started = performance.now();
    expect(await check({}, 1500)).toMatchObject({ ok: true, data: { players: 2 } });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('is degraded below minPlayers', async () => {
    expect(await check({ minPlayers: 5 })).toMatchObject({
      ok: true,
      degraded: true,
      message: '2/48 players, v1.0.0.7290 (fewer than 5)',
    });
  });

  it('fails when neither dynamic.json nor info.json answers', async () => {
    server.state.dynamic = { misbehave: 'missing' };
    server.state.info = { misbehave: 'not-json' };
    expect(await check()).toEqual({
      ok: false,
      error: '/dynamic.json answered HTTP 404; /info.json is not valid JSON',
    });
  });

  it('cuts off an endless answer at the byte cap', async () => {
    server.state.dynamic = { misbehave: 'endless' };
    server.state.info = { misbehave: 'endless' };
    expect(await check()).toEqual({
      ok: false,
      error: '/dynamic.json is larger than 1 MiB; /info.json is larger than 1 MiB',
    });
  });

  it('times out on a server that trickles or never answers', async () => {
    server.state.dynamic = { misbehave: 'trickle' };
    server.state.info = { misbehave: 'hang' };
    expect(await check({}, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(await run({}, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('returns at once when its signal is already aborted', async () => {
    server.state.players = { misbehave: 'hang' };
    const result = await probeDirectly(fivem, config({}), 1000, AbortSignal.abort());
    expect(result).toEqual({ ok: false, error: 'timed out after 1 s' });
  });

  it('says the connection was refused when nothing listens', async () => {
    const closed = await startFivemFake();
    await closed.close();
    expect(await check({ port: closed.port })).toEqual({ ok: false, error: 'connection refused' });
  });

  it('runs through runProbe with the same result', async () => {
    expect(await run({ minPlayers: 1 })).toMatchObject({ ok: true, data: { players: 2 } });
    expect(await run({ port: 0 })).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid config/) });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await check();
    server.state.players = { misbehave: 'hang' };
    server.state.dynamic = { misbehave: 'endless' };
    await check({}, 300);
    expect(await leakedResources(before)).toEqual({});
  });
});

describe('stripColourCodes', () => {
  it('removes ^0 to ^9 and keeps other carets', () => {
    expect(stripColourCodes('^1Red ^7White^0')).toBe('Red White');
    expect(stripColourCodes('a^b ^x')).toBe('a^b ^x');
  });
});
