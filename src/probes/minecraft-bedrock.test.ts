// The minecraft-bedrock probe against fake RakNet servers, against bedrock-protocol's own server, and through runProbe.
import { createRequire } from 'node:module';
import type bedrock from 'bedrock-protocol';
import { describe, expect, it } from 'vitest';
import { startFakeBedrockServer, unconnectedPong } from '../../test/fakes/bedrock-server.js';
import { closedAfterEach, closedUdpPort, leavingNothingOpen } from '../../test/fakes/probe-runs.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { minecraftBedrock, minecraftBedrockConfig, probeMinecraftBedrock } from './minecraft-bedrock.js';
import type { ProbeResult } from './probe.js';
import { runProbe } from './run.js';

const ADVERTISEMENT = 'MCPE;§a§lWarden §rTest;766;1.21.50;3;20;1234567890123;§6Bedrock level;Survival;1;19132;19133;';
const MAGIC = '00ffff00fefefefefdfdfdfd12345678';

const serve = closedAfterEach(startFakeBedrockServer);

/** Calls the probe directly, as the runner would, and checks it left no socket or timer behind. */
function probe(config: Record<string, unknown>, timeoutMs = 1000): Promise<ProbeResult> {
  return leavingNothingOpen(() => {
    // The signal starts with the probe, not before the leak check's wait for a quiet snapshot.
    const ctx = { signal: AbortSignal.timeout(timeoutMs), timeoutMs, guard: ANY_TARGET };
    return probeMinecraftBedrock(minecraftBedrockConfig.parse(config), ctx);
  });
}

describe('minecraft-bedrock probe', () => {
  it('reads edition, MOTD, level, version, players and game mode from the pong', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT });
    const result = await probe({ host: server.host, port: server.port });
    expect(result).toMatchObject({ ok: true, message: '3/20 players · 1.21.50' });
    expect(result.data).toEqual({
      players: 3,
      maxPlayers: 20,
      version: '1.21.50',
      protocol: 766,
      motd: 'Warden Test',
      levelName: 'Bedrock level',
      gameMode: 'Survival',
      edition: 'MCPE',
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends a 33-byte Unconnected Ping: id 0x01, time, magic, client GUID', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT });
    await probe({ host: server.host, port: server.port });
    expect(server.pings).toHaveLength(1);
    const [ping] = server.pings;
    expect(ping?.wellFormed).toBe(true);
    expect(ping?.raw.subarray(9, 25).toString('hex')).toBe(MAGIC);
  });

  it('reads Education Edition servers', async () => {
    const server = await serve({ kind: 'pong', advertisement: 'MCEE;Classroom;589;1.20.0;0;30;1;World;Creative;1;' });
    expect((await probe({ host: server.host, port: server.port })).data).toMatchObject({
      edition: 'MCEE',
      motd: 'Classroom',
      gameMode: 'Creative',
    });
  });

  it('shows as degraded with fewer players than minPlayers', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT });
    expect(await probe({ host: server.host, port: server.port, minPlayers: 10 })).toMatchObject({
      ok: true,
      degraded: true,
      message: '3/20 players · 1.21.50 · fewer than 10 players online',
    });
  });

  it('ignores malformed datagrams that arrive before the pong', async () => {
    const badMagic = unconnectedPong(0n, 'MCPE;decoy;1;1;0;1;');
    badMagic.fill(0, 17, 33);
    const server = await serve({
      kind: 'pong',
      advertisement: ADVERTISEMENT,
      before: [Buffer.from('hello'), badMagic, Buffer.from([0x1c, 0, 0])],
    });
    expect(await probe({ host: server.host, port: server.port })).toMatchObject({
      ok: true,
      data: { motd: 'Warden Test' },
    });
  });

  it('ignores a pong from another port', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT, decoy: 'MCPE;Impostor;1;1.0;99;99;' });
    expect(await probe({ host: server.host, port: server.port })).toMatchObject({
      ok: true,
      data: { motd: 'Warden Test', players: 3 },
    });
  });

  it('accepts a pong that does not echo the ping time', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT, echoTime: false });
    expect(await probe({ host: server.host, port: server.port })).toMatchObject({ ok: true });
  });

  it('times out when only malformed datagrams come back, and says so', async () => {
    const server = await serve({ kind: 'garbage', datagrams: [Buffer.from('SSH-2.0-OpenSSH')] });
    expect((await probe({ host: server.host, port: server.port }, 400)).error).toBe(
      'timed out after 0.4 s (ignored 1 malformed reply: packet 0x53 instead of an unconnected pong (0x1c))',
    );
  });

  it('reports a well-framed pong with a nonsense advertisement as an unexpected response', async () => {
    const server = await serve({ kind: 'pong', advertisement: 'MCPE;name;766;1.21.50;lots;20;' });
    expect((await probe({ host: server.host, port: server.port })).error).toBe(
      'unexpected response: advertisement player count "lots" is not a whole number',
    );
  });

  it('stops reading a server that floods it', async () => {
    const server = await serve({ kind: 'flood', count: 5, bytes: 60_000 });
    expect((await probe({ host: server.host, port: server.port })).error).toMatch(/^response too large/);
  });

  it('times out on a silent server', async () => {
    const server = await serve({ kind: 'silent' });
    expect(await probe({ host: server.host, port: server.port }, 300)).toEqual({
      ok: false,
      error: 'timed out after 0.3 s',
    });
  });

  it('reports a closed port as connection refused', async () => {
    expect(await probe({ host: '127.0.0.1', port: await closedUdpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });
});

// bedrock-protocol's index loads its client, and with it the native RakNet, whose prebuilt binary is found only on a
// Linux 5 kernel; the server alone, on the pure-JS RakNet, needs no native code on any machine.
const { Server: BedrockServer } = createRequire(import.meta.url)('bedrock-protocol/src/server.js') as {
  Server: typeof bedrock.Server;
};

describe('minecraft-bedrock against bedrock-protocol', () => {
  it("reads the advertisement of bedrock-protocol's own server", async () => {
    const port = await closedUdpPort();
    const options: bedrock.ServerOptions = {
      host: '127.0.0.1',
      port,
      version: '1.21.50',
      offline: true,
      // The pure-JS RakNet, so the test does not depend on a native build.
      raknetBackend: 'jsp-raknet',
      motd: { motd: '§bbedrock-protocol §ltest', levelName: 'Fake world' },
      maxPlayers: 9,
    };
    const server = new BedrockServer(options);
    await server.listen();
    try {
      const result = await probe({ host: '127.0.0.1', port });
      expect(result).toMatchObject({
        ok: true,
        message: '0/9 players · 1.21.50',
        data: {
          edition: 'MCPE',
          motd: 'bedrock-protocol test',
          levelName: 'Fake world',
          version: '1.21.50',
          players: 0,
          maxPlayers: 9,
        },
      });
    } finally {
      await server.close();
    }
  });
});

describe('minecraft-bedrock through runProbe', () => {
  it('answers a pong, on the default port when none is set', async () => {
    const server = await serve({ kind: 'pong', advertisement: ADVERTISEMENT });
    expect(minecraftBedrockConfig.parse({ host: 'example.test' }).port).toBe(19132);
    const result = await leavingNothingOpen(() =>
      runProbe(minecraftBedrock, { host: server.host, port: server.port }, { timeoutMs: 1000, guard: ANY_TARGET }),
    );
    expect(result).toMatchObject({ ok: true, data: { motd: 'Warden Test' } });
  });

  it('times out on a silent server and leaves nothing open', async () => {
    const server = await serve({ kind: 'silent' });
    const result = await leavingNothingOpen(() =>
      runProbe(minecraftBedrock, { host: server.host, port: server.port }, { timeoutMs: 300, guard: ANY_TARGET }),
    );
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });
});
