// The source probe against a fake A2S server: info replies, challenges, splits, malformed answers and silence.
import { describe, expect, it } from 'vitest';
import { type A2sFake, type A2sFakeOptions, startA2sServer } from '../../test/fakes/a2s-server.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { abortedAfter, checkAgainst, closedUdpPort, probeDirectly } from '../../test/fakes/probe-runs.js';
import { ANY_TARGET } from '../net/target-guard.js';
import type { ProbeResult } from './probe.js';
import { runProbe } from './run.js';
import { source, sourceConfig } from './source.js';

const TIMEOUT_MS = 500;

/** Runs the probe through runProbe against a fake, and proves nothing stayed open afterwards. */
async function check(options: A2sFakeOptions, extra: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS) {
  const fake = await startA2sServer(options);
  return checkAgainst(fake, source, { host: '127.0.0.1', port: fake.port, ...extra }, timeoutMs);
}

/** Calls the probe function itself, with a signal this test controls. */
function probeItself(fake: A2sFake, signal: AbortSignal, timeoutMs = TIMEOUT_MS): Promise<ProbeResult> {
  return probeDirectly(source, { host: '127.0.0.1', port: fake.port }, timeoutMs, signal);
}

describe('source probe', () => {
  it('reports name, map, players, bots and version from the info reply', async () => {
    const { result, fake } = await check({});
    expect(result).toMatchObject({
      ok: true,
      message: '12/24 players, de_dust2',
      data: {
        name: 'Warden Test Server',
        map: 'de_dust2',
        game: 'Counter-Strike 2',
        players: 12,
        maxPlayers: 24,
        bots: 2,
        version: '1.40.2.1',
        passwordProtected: false,
        vac: true,
      },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.degraded).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
  });

  it('answers a challenge by resending the request with the challenge appended', async () => {
    const { result, fake } = await check({ challenge: true });
    expect(result.ok).toBe(true);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.subarray(-4).toString('hex')).toBe('1a2b3c4d');
    expect(fake.requests[1]!.subarray(0, -4)).toEqual(fake.requests[0]);
  });

  it('reassembles a reply split into packets that arrive last first', async () => {
    const { result } = await check({ splitInto: 3, challenge: true, info: { name: 'x'.repeat(200) } });
    expect(result).toMatchObject({ ok: true, data: { name: 'x'.repeat(200), players: 12 } });
  });

  it('accepts replies carrying the Extra Data Flag fields', async () => {
    const edf = { gamePort: 27015, steamId: 90071996842377216n, keywords: 'secure', gameId: 730n };
    const { result } = await check({ info: { edf, visibility: 1 } });
    expect(result).toMatchObject({ ok: true, data: { players: 12, gamePort: 27015, passwordProtected: true } });
  });

  it('reads when a Rust server was last wiped from its born keyword, and nothing from other keywords', async () => {
    const rust = { keywords: 'mp100,cp12,ptrak,qp0,v2580,born1764180000,gmrust,oxide', gamePort: 28015 };
    const { result } = await check({ info: { edf: rust } });
    expect(result).toMatchObject({ ok: true, data: { wipedAt: 1_764_180_000_000, gamePort: 28015 } });
    const { result: other } = await check({ info: { edf: { keywords: 'secure,bornagain,born12' } } });
    expect(other.ok).toBe(true);
    expect(other.data).not.toHaveProperty('wipedAt');
  });

  it('shows as degraded below minPlayers, counting players as the server reports them', async () => {
    const { result } = await check({ info: { players: 3, bots: 3 } }, { minPlayers: 5 });
    expect(result).toMatchObject({ ok: true, degraded: true, message: '3/24 players, de_dust2 (fewer than 5)' });
    const { result: enough } = await check({ info: { players: 5 } }, { minPlayers: 5 });
    expect(enough.degraded).toBeUndefined();
  });

  it('times out on a server that never answers, and resends the request once meanwhile', async () => {
    const { result, elapsedMs, fake } = await check({ mode: 'silent' });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.5 s' });
    expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS + 400);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a slow answer within the timeout with its latency', async () => {
    const { result } = await check({ delayMs: 100 }, {}, 1000);
    expect(result.ok).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(90);
  });

  it('reports a closed UDP port as refused', async () => {
    const closedPort = await closedUdpPort();
    const before = activeResources();
    const result = await runProbe(
      source,
      { host: '127.0.0.1', port: closedPort },
      { timeoutMs: TIMEOUT_MS, guard: ANY_TARGET },
    );
    expect(result.ok).toBe(false);
    // Linux reports the ICMP "port unreachable" on a connected socket; elsewhere it is a timeout.
    expect(result.error).toMatch(/^connection refused \(nothing listening on UDP port \d+\)$|^timed out after 0.5 s$/);
    expect(await leakedResources(before)).toEqual({});
  });

  it.each([
    ['garbage', /^unexpected response: not an A2S packet \(header 48 54 54 50\)$/],
    ['truncated', /^unexpected response: info reply is truncated/],
    ['wrong-type', /^unexpected response: packet type 0x44 instead of an info reply$/],
    ['challenge-loop', /^unexpected response: the server sent 4 challenges without answering$/],
    ['compressed', /^unexpected response: compressed responses are not supported$/],
    ['endless-split', /^unexpected response: more than 16 split packets arrived$/],
    ['oversized-split', /^unexpected response: a reply split into 200 packets exceeds the limit of 16$/],
    ['bloated-split', /^unexpected response: split packets exceed the limit of 32768 bytes$/],
  ] as const)('reports an unexpected response when the server answers with: %s', async (mode, error) => {
    const { result } = await check({ mode });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(error);
  });

  it('closes its socket and returns as soon as its signal aborts', async () => {
    const fake = await startA2sServer({ mode: 'silent' });
    try {
      expect(await abortedAfter(50, (signal) => probeItself(fake, signal, 10_000))).toEqual({
        ok: false,
        error: 'timed out after 10 s',
      });
    } finally {
      await fake.close();
    }
  });

  it('returns at once when called with an aborted signal', async () => {
    const fake = await startA2sServer({});
    try {
      expect(await probeItself(fake, AbortSignal.abort())).toEqual({ ok: false, error: 'timed out after 0.5 s' });
      expect(fake.requests).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });

  it('works when called directly, without runProbe', async () => {
    const fake = await startA2sServer({ challenge: true });
    try {
      const result = await probeItself(fake, new AbortController().signal);
      expect(result).toMatchObject({ ok: true, data: { map: 'de_dust2' } });
    } finally {
      await fake.close();
    }
  });

  it('refuses an invalid config before sending anything', async () => {
    expect(
      await runProbe(source, { host: 'not a host', port: 27015 }, { timeoutMs: TIMEOUT_MS, guard: ANY_TARGET }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid config/),
    });
    expect(sourceConfig.parse({ host: 'example.com' }).port).toBe(27015);
  });
});
