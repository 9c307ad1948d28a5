// The gamedig probe through GameDig against the fake A2S server, as a relay runs it.
import { describe, expect, it } from 'vitest';
import { type A2sFakeOptions, startA2sServer } from '../../test/fakes/a2s-server.js';
import { abortedAfter, checkAgainst, probeDirectly } from '../../test/fakes/probe-runs.js';
import { gamedig, gamedigConfig } from './gamedig.js';

const TIMEOUT_MS = 600;

/** Runs the probe through runProbe against the A2S fake, and proves nothing stayed open afterwards. */
async function check(options: A2sFakeOptions, extra: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS) {
  const fake = await startA2sServer(options);
  return checkAgainst(
    fake,
    gamedig,
    { game: 'counterstrike2', host: '127.0.0.1', port: fake.port, ...extra },
    timeoutMs,
  );
}

describe('gamedig probe', () => {
  // GameDig loads its protocols on first use; doing it here keeps that out of the timed checks below.
  it('loads gamedig and knows the Valve games (valve protocol)', async () => {
    // @ts-expect-error gamedig 5 ships no type declarations.
    const { games } = (await import('gamedig')) as { games: Record<string, { options: { protocol: string } }> };
    expect(games.counterstrike2?.options.protocol).toBe('valve');
    expect(games.teamfortress2?.options.protocol).toBe('valve');
  });

  it('queries a Source server through GameDig, challenge included', async () => {
    const { result, fake } = await check({ challenge: true });
    expect(result).toMatchObject({
      ok: true,
      message: '12/24 players, de_dust2',
      data: { name: 'Warden Test Server', map: 'de_dust2', players: 12, maxPlayers: 24, bots: 2, version: '1.40.2.1' },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    // Info only: no A2S_PLAYER round trip.
    expect(fake.requests.every((request) => request[4] === 0x54)).toBe(true);
  });

  it('reassembles split replies (GameDig does it itself)', async () => {
    const { result } = await check({ splitInto: 2 });
    expect(result).toMatchObject({ ok: true, data: { players: 12 } });
  });

  it("reports the password flag and the game port the server names, for the page's join button", async () => {
    const { result } = await check({ info: { visibility: 1, edf: { gamePort: 27050 } } });
    expect(result).toMatchObject({ ok: true, data: { passwordProtected: true, gamePort: 27050 } });
  });

  it('accepts old game ids and protocol- ids', async () => {
    expect((await check({}, { game: 'tf2' })).result.ok).toBe(true);
    expect((await check({}, { game: 'protocol-valve' })).result.ok).toBe(true);
  });

  it('shows as degraded below minPlayers', async () => {
    const { result } = await check({ info: { players: 1 } }, { minPlayers: 4 });
    expect(result).toMatchObject({ ok: true, degraded: true, message: '1/24 players, de_dust2 (fewer than 4)' });
  });

  it('refuses an unknown game id clearly, without sending anything', async () => {
    const { result, fake } = await check({}, { game: 'no-such-game' });
    expect(result).toEqual({ ok: false, error: 'unknown GameDig game id "no-such-game"' });
    expect(fake.requests).toHaveLength(0);
  });

  it('times out within the check timeout on a server that never answers, leaving nothing open', async () => {
    const { result, elapsedMs } = await check({ mode: 'silent' });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.6 s' });
    // GameDig's own timeouts sit below the check's, so it gives up first and cleans up after itself.
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS + 100);
  });

  it('treats packets that are not A2S as silence, as GameDig ignores them', async () => {
    const { result } = await check({ mode: 'garbage' });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.6 s' });
  });

  it("reports GameDig's own protocol errors as unexpected responses", async () => {
    const { result } = await check({ mode: 'compressed' });
    expect(result).toEqual({ ok: false, error: 'unexpected response: Invalid bzip packet' });
  });

  it('returns as soon as its signal aborts, and releases everything once GameDig settles', async () => {
    const fake = await startA2sServer({ mode: 'silent' });
    try {
      const config = { game: 'counterstrike2', host: '127.0.0.1', port: fake.port };
      const result = await abortedAfter(50, (signal) => probeDirectly(gamedig, config, TIMEOUT_MS, signal), {
        withinMs: 200,
        leakWaitMs: 1500,
      });
      expect(result).toEqual({ ok: false, error: 'timed out after 0.6 s' });
    } finally {
      await fake.close();
    }
  });

  it('runs on relays only and checks its game id', () => {
    expect(gamedig.runsOn).toEqual(['relay']);
    expect(gamedigConfig.safeParse({ game: 'Valheim!', host: 'example.com' }).success).toBe(false);
  });
});
