// The rust-webrcon probe against a fake WebRCON server: serverinfo, chatter, rejections, floods and silence.
import { describe, expect, it } from 'vitest';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { abortedAfter, checkAgainst, closedTcpPort, probeDirectly } from '../../test/fakes/probe-runs.js';
import { type RustFakeOptions, startRustWebrconServer } from '../../test/fakes/rust-webrcon-server.js';
import { rustWebrcon, rustWebrconConfig } from './rust-webrcon.js';

const PASSWORD = 'r4st-Pa$$word';
const TIMEOUT_MS = 800;

/** Runs the probe through runProbe against a fake, proving nothing stayed open and the password never shows. */
async function check(options: Partial<RustFakeOptions>, extra: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS) {
  const fake = await startRustWebrconServer({ password: PASSWORD, ...options });
  return checkAgainst(
    fake,
    rustWebrcon,
    { host: '127.0.0.1', port: fake.port, password: PASSWORD, ...extra },
    timeoutMs,
    PASSWORD,
  );
}

/** Calls the probe function itself, so run.ts's scrubbing cannot hide a leaked password. */
function probeItself(port: number, password: string, signal = new AbortController().signal, timeoutMs = TIMEOUT_MS) {
  return probeDirectly(rustWebrcon, { host: '127.0.0.1', port, password }, timeoutMs, signal);
}

describe('rust-webrcon probe', () => {
  it('reports players, queue, framerate, hostname, map and version from serverinfo', async () => {
    const { result, fake } = await check({});
    expect(result).toMatchObject({
      ok: true,
      message: '87/200 players, 4 queued, Procedural Map',
      data: {
        players: 87,
        maxPlayers: 200,
        queue: 4,
        joining: 2,
        framerate: 59.8,
        hostname: 'Warden Test Rust',
        map: 'Procedural Map',
        uptimeSec: 86400,
        version: '2590.277.1',
      },
    });
    expect(result.degraded).toBeUndefined();
    expect(fake.paths).toEqual([`/${PASSWORD}`]);
    const request = JSON.parse(fake.received[0]!);
    expect(request).toEqual({ Identifier: expect.any(Number), Message: 'serverinfo', Name: 'WebRcon' });
  });

  it('takes the version from Version when a server sends no Protocol', async () => {
    const { result } = await check({ info: { Protocol: undefined } });
    expect(result.data).toMatchObject({ version: '2590' });
  });

  it('ignores console, chat, non-JSON and other replies until its own Identifier comes back', async () => {
    const { result } = await check({ chatter: true });
    expect(result).toMatchObject({ ok: true, data: { players: 87 } });
  });

  it('shows as degraded below minPlayers', async () => {
    const { result } = await check({ info: { Players: 3, Queued: 0 } }, { minPlayers: 10 });
    expect(result).toMatchObject({
      ok: true,
      degraded: true,
      message: '3/200 players, Procedural Map (fewer than 10)',
    });
  });

  it.each(['close', 'http-401', 'hang-up'] as const)(
    'reports a wrong password turned away by %s, without the password',
    async (rejection) => {
      const fake = await startRustWebrconServer({ password: 'the-real-one', rejection });
      try {
        const before = activeResources();
        const result = await probeItself(fake.port, PASSWORD);
        expect(result).toEqual({ ok: false, error: 'connection rejected (wrong RCON password?)' });
        expect(JSON.stringify(result)).not.toContain(PASSWORD);
        expect(await leakedResources(before)).toEqual({});
      } finally {
        await fake.close();
      }
    },
  );

  it('percent-encodes only what would break the URL, and never shows the password', async () => {
    const password = 'p@ss word#?1';
    const fake = await startRustWebrconServer({ password: 'other', rejection: 'close' });
    try {
      const result = await probeItself(fake.port, password);
      expect(fake.paths).toEqual(['/p@ss%20word%23%3F1']);
      expect(result).toEqual({ ok: false, error: 'connection rejected (wrong RCON password?)' });
      expect(JSON.stringify(result)).not.toMatch(/ss word|ss%20word/);
    } finally {
      await fake.close();
    }
  });

  it('reports a closed port as refused', async () => {
    const port = await closedTcpPort();
    const before = activeResources();
    expect(await probeItself(port, PASSWORD)).toEqual({ ok: false, error: 'connection refused' });
    expect(await leakedResources(before)).toEqual({});
  });

  it('reports a port that speaks plain HTTP as an unexpected response', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((_request, response) => response.writeHead(404).end('not here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(await probeItself(port, PASSWORD)).toEqual({
        ok: false,
        error: 'unexpected response: HTTP 404 instead of a WebSocket upgrade',
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('times out on a server that never answers', async () => {
    const { result, elapsedMs } = await check({ mode: 'silent' }, {}, 400);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.4 s' });
    expect(elapsedMs).toBeGreaterThanOrEqual(380);
    expect(elapsedMs).toBeLessThan(800);
  });

  it('reports a slow answer within the timeout with its latency', async () => {
    const { result } = await check({ delayMs: 100 }, {}, 1000);
    expect(result.ok).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(90);
  });

  it('reports a reply that is not serverinfo JSON', async () => {
    const { result } = await check({ mode: 'not-json' });
    expect(result).toEqual({
      ok: false,
      error: `unexpected response: serverinfo returned "Command 'serverinfo' not found"`,
    });
  });

  it('refuses a message larger than its cap', async () => {
    const { result } = await check({ mode: 'huge' });
    expect(result).toEqual({ ok: false, error: 'unexpected response: a message larger than 256 KiB' });
  });

  it('cuts endless console chatter off at 1 MiB', async () => {
    const { result } = await check({ mode: 'flood' }, {}, 1500);
    expect(result).toEqual({ ok: false, error: 'unexpected response: more than 1 MiB without a serverinfo reply' });
  });

  it('reports a server closing without a word as a rejection, as Rust does for a wrong password', async () => {
    const { result } = await check({ mode: 'close-on-request' });
    expect(result).toEqual({ ok: false, error: 'connection rejected (wrong RCON password?)' });
  });

  it('closes its socket and returns as soon as its signal aborts', async () => {
    const fake = await startRustWebrconServer({ password: PASSWORD, mode: 'silent' });
    try {
      expect(await abortedAfter(50, (signal) => probeItself(fake.port, PASSWORD, signal, 10_000))).toEqual({
        ok: false,
        error: 'timed out after 10 s',
      });
    } finally {
      await fake.close();
    }
  });

  it('defaults to port 28016', () => {
    expect(rustWebrconConfig.parse({ host: 'example.com', password: 'x' }).port).toBe(28016);
  });
});
