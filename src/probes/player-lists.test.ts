// Who is online, per monitor type: A2S_PLAYER with its challenge, FiveM's players.json, Rust's playerlist and the
// Minecraft status sample, each asked only when the monitor's `playerNames` is on, capped and cleaned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA2sServer } from '../../test/fakes/a2s-server.js';
import { fivemServerState, startFivemFake } from '../../test/fakes/game-api-fakes.js';
import { startFakeJavaServer } from '../../test/fakes/minecraft-java-server.js';
import { probe as probeJava, STATUS } from '../../test/fakes/minecraft-java-status.js';
import { checkAgainst, closedAfterEach, probeDirectly } from '../../test/fakes/probe-runs.js';
import { startRustWebrconServer } from '../../test/fakes/rust-webrcon-server.js';
import { encodePlayerRequest } from './codecs/a2s.js';
import { parsePlayers } from './codecs/a2s-players.js';
import { fivem } from './fivem.js';
import { rustWebrcon } from './rust-webrcon.js';
import { source } from './source.js';

const MANY = Array.from({ length: 500 }, (_, n) => `player${n}`);
// No NUL: A2S ends its strings with one. Bell and a right-to-left override are what must go.
const HOSTILE = '<script>alert(1)</script>\u0007\u202e';

describe('A2S_PLAYER', () => {
  it('encodes the request with FF FF FF FF until the server gives its challenge', () => {
    expect(encodePlayerRequest().toString('hex')).toBe('ffffffff55ffffffff');
    expect(encodePlayerRequest(Buffer.from([1, 2, 3, 4])).toString('hex')).toBe('ffffffff5501020304');
  });

  it('reads index, name, score and duration of each player', () => {
    const body = Buffer.concat([
      Buffer.from([2, 0]),
      Buffer.from('Ann\0'),
      Buffer.from([5, 0, 0, 0, 0, 0, 0x70, 0x42]), // score 5, 60.0 s
      Buffer.from([0]),
      Buffer.from('Bob\0'),
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0x80, 0x3f]), // score -1, 1.0 s
    ]);
    expect(parsePlayers(body)).toEqual([
      { name: 'Ann', score: 5, durationSec: 60 },
      { name: 'Bob', score: -1, durationSec: 1 },
    ]);
    expect(() => parsePlayers(body.subarray(0, 8))).toThrow('player reply is truncated');
  });

  it('asks for the player list after the info, answering the challenge, byte for byte', async () => {
    const { result, fake } = await a2s({ challenge: true, playerNames: ['Ann', 'Bob'] }, { playerNames: true });
    expect(result).toMatchObject({
      ok: true,
      message: '12/24 players, de_dust2',
      data: { playerNames: ['Ann', 'Bob'] },
    });
    const players = fake.requests.filter((request) => request[4] === 0x55).map((request) => request.toString('hex'));
    expect(players).toEqual(['ffffffff55ffffffff', 'ffffffff551a2b3c4d']);
  });

  it('sends no A2S_PLAYER unless the monitor asks for names', async () => {
    const { result, fake } = await a2s({ playerNames: ['Ann'] });
    expect(result.data).not.toHaveProperty('playerNames');
    expect(fake.requests.some((request) => request[4] === 0x55)).toBe(false);
  });

  it('reassembles a long list split over packets, and keeps 100 clean names', async () => {
    const { result } = await a2s({ playerNames: [HOSTILE, ...MANY] }, { playerNames: true });
    const names = result.data?.playerNames as string[];
    expect(names).toHaveLength(100);
    expect(names[0]).toBe('<script>alert(1)</script>');
    expect(names[1]).toBe('player0');
  });

  it('stays up without names when the server ignores A2S_PLAYER, within half the timeout', async () => {
    const { result, elapsedMs } = await a2s(
      { playerQuery: 'silent', playerNames: ['Ann'] },
      { playerNames: true },
      TIMEOUT_MS,
    );
    expect(result).toMatchObject({ ok: true, message: '12/24 players, de_dust2' });
    expect(result.data).not.toHaveProperty('playerNames');
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS * 0.5 + 300);
  });
});

describe('FiveM players.json', () => {
  const fake = { server: undefined as Awaited<ReturnType<typeof startFivemFake>> | undefined };
  beforeAll(async () => {
    fake.server = await startFivemFake(fivemServerState());
  });
  afterAll(() => fake.server?.close());
  const check = (extra: Record<string, unknown>) =>
    probeDirectly(fivem, { host: '127.0.0.1', port: fake.server?.port, ...extra });

  it('keeps the names, colour codes stripped, and nothing else of an entry', async () => {
    const state = fake.server?.state as ReturnType<typeof fivemServerState>;
    state.players = [
      {
        endpoint: '198.51.100.7:30120',
        id: 1,
        identifiers: ['license:abc', 'discord:123'],
        name: '^1Al^7ice',
        ping: 4,
      },
      { endpoint: '198.51.100.8:30120', id: 2, identifiers: ['steam:110000'], name: HOSTILE, ping: 9 },
    ];
    const result = await check({ playerNames: true });
    expect(result.data?.playerNames).toEqual(['Alice', '<script>alert(1)</script>']);
    const json = JSON.stringify(result);
    for (const secret of ['198.51.100', 'license:abc', 'discord:123', 'steam:110000'])
      expect(json).not.toContain(secret);
  });

  it('caps a list of 500 at 100 names, and keeps none unasked', async () => {
    (fake.server?.state as ReturnType<typeof fivemServerState>).players = MANY.map((name, id) => ({ id, name }));
    expect((await check({ playerNames: true })).data?.playerNames).toHaveLength(100);
    expect((await check({})).data).not.toHaveProperty('playerNames');
  });
});

describe('Rust playerlist', () => {
  const serve = closedAfterEach(startRustWebrconServer);
  const rust = async (players: string[] | undefined, extra: Record<string, unknown>) => {
    const fake = await serve({ password: 'pw-rust', chatter: true, ...(players ? { players } : {}) });
    return {
      fake,
      result: await probeDirectly(
        rustWebrcon,
        { host: '127.0.0.1', port: fake.port, password: 'pw-rust', ...extra },
        ANSWERED_TIMEOUT_MS,
      ),
    };
  };

  it('sends playerlist after serverinfo and keeps the display names only', async () => {
    const { result, fake } = await rust(['Ann', HOSTILE], { playerNames: true });
    expect(result).toMatchObject({
      ok: true,
      data: { players: 87, playerNames: ['Ann', '<script>alert(1)</script>'] },
    });
    expect(fake.received.map((text) => (JSON.parse(text) as { Message: string }).Message)).toEqual([
      'serverinfo',
      'playerlist',
    ]);
    expect(JSON.stringify(result)).not.toMatch(/7656119|203\.0\.113/);
  });

  it('caps 500 players at 100 names', async () => {
    const { result } = await rust(MANY, { playerNames: true });
    expect(result.data?.playerNames).toEqual(MANY.slice(0, 100));
  });

  it('asks only serverinfo unless names are wanted, and stays up when playerlist is not answered', async () => {
    const plain = await rust(['Ann'], {});
    expect(plain.fake.received).toHaveLength(1);
    expect(plain.result.data).not.toHaveProperty('playerNames');
    const unanswered = await rust(undefined, { playerNames: true });
    expect(unanswered.result).toMatchObject({ ok: true, data: { players: 87 } });
    expect(unanswered.result.data).not.toHaveProperty('playerNames');
  });
});

describe('Minecraft status sample', () => {
  const serve = closedAfterEach(startFakeJavaServer);

  it('keeps the sample as names, § codes removed, only when asked', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    const asked = await probeJava({ host: server.host, port: server.port, playerNames: true });
    expect(asked.data?.playerNames).toEqual(Array.from({ length: 12 }, (_, i) => `player${i}`));
    const unasked = await probeJava({ host: server.host, port: server.port });
    expect(unasked.data).not.toHaveProperty('playerNames');
  });

  it('cleans a hostile name in the sample', async () => {
    const status = { ...STATUS, players: { online: 1, max: 5, sample: [{ name: HOSTILE, id: '0' }] } };
    const server = await serve({ kind: 'status', status });
    const result = await probeJava({ host: server.host, port: server.port, playerNames: true });
    expect(result.data?.playerNames).toEqual(['<script>alert(1)</script>']);
  });
});

/** The timeout of the test that times a silent server: half of it is what the player query may take. */
const TIMEOUT_MS = 800;
/**
 * The timeout of the tests that expect an answer: a check ends as soon as the server has answered, so a long one costs
 * nothing, and a busy machine (a full test run) cannot push the player query past its share of it.
 */
const ANSWERED_TIMEOUT_MS = 4000;

async function a2s(
  options: Parameters<typeof startA2sServer>[0],
  extra: Record<string, unknown> = {},
  timeoutMs = ANSWERED_TIMEOUT_MS,
) {
  const fake = await startA2sServer(options);
  return checkAgainst(fake, source, { host: '127.0.0.1', port: fake.port, ...extra }, timeoutMs);
}
