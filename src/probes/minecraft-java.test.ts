// The minecraft-java probe against fake servers in every mood, against minecraft-protocol's own server, and through
// runProbe (SRV lookups: minecraft-java-srv.test.ts).
import mc from 'minecraft-protocol';
import { describe, expect, it } from 'vitest';
import { startFakeJavaServer } from '../../test/fakes/minecraft-java-server.js';
import { probe, STATUS, timedProbe } from '../../test/fakes/minecraft-java-status.js';
import { closedAfterEach, closedTcpPort, leavingNothingOpen } from '../../test/fakes/probe-runs.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { MINECRAFT_JAVA_DEFAULT_PROTOCOL, minecraftJava } from './minecraft-java.js';
import { runProbe } from './run.js';

const serve = closedAfterEach(startFakeJavaServer);

describe('minecraft-java probe', () => {
  it('reads players, version, MOTD and favicon presence from a status, and no names unasked', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    const result = await probe({ host: server.host, port: server.port });
    expect(result).toMatchObject({ ok: true, message: '3/20 players · 1.21.4' });
    expect(result.data).toEqual({
      players: 3,
      maxPlayers: 20,
      version: '1.21.4',
      protocol: 769,
      motd: 'Welcome to Warden!\nsecond line',
      favicon: true,
      target: `127.0.0.1:${server.port}`,
    });
    expect(JSON.stringify(result.data)).not.toContain('base64');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends a handshake the server reads as host, port, protocol and next state 1, then pings', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    await probe({ host: server.host, port: server.port });
    expect(server.handshakes).toEqual([
      { protocolVersion: MINECRAFT_JAVA_DEFAULT_PROTOCOL, host: '127.0.0.1', port: server.port, nextState: 1 },
    ]);
    expect(server.pings).toHaveLength(1);
  });

  it('sends the configured protocol version, -1 included', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    await probe({ host: server.host, port: server.port, protocolVersion: -1 });
    expect(server.handshakes[0]?.protocolVersion).toBe(-1);
  });

  it('flattens a plain-string MOTD with § codes', async () => {
    const server = await serve({ kind: 'status', status: { ...STATUS, description: '§6§lGold§r §kxx§r Server' } });
    expect((await probe({ host: server.host, port: server.port })).data?.motd).toBe('Gold xx Server');
  });

  it('shows as degraded with fewer players than minPlayers', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    const result = await probe({ host: server.host, port: server.port, minPlayers: 5 });
    expect(result).toMatchObject({
      ok: true,
      degraded: true,
      message: '3/20 players · 1.21.4 · fewer than 5 players online',
    });
  });

  it('is not degraded at minPlayers or above', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    expect((await probe({ host: server.host, port: server.port, minPlayers: 3 })).degraded).toBeUndefined();
  });

  it('stays up when the server hangs up instead of answering the ping', async () => {
    const server = await serve({ kind: 'status', status: STATUS, pong: false });
    expect(await probe({ host: server.host, port: server.port })).toMatchObject({ ok: true, data: { players: 3 } });
  });

  it('reports garbage as an unexpected response', async () => {
    const server = await serve({ kind: 'garbage', bytes: Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n') });
    const result = await probe({ host: server.host, port: server.port });
    expect(result.ok).toBe(false);
    expect(result.error).toBe(`unexpected response: "HTTP/1.1 400 Bad Request" (28 bytes, then the server hung up)`);
  });

  it('reports a status that is not JSON as an unexpected response', async () => {
    const server = await serve({ kind: 'status', status: 'Welcome to my server' });
    expect((await probe({ host: server.host, port: server.port })).error).toBe(
      'unexpected response: status is not JSON: "Welcome to my server"',
    );
  });

  it('cuts a server trickling one byte at a time at the timeout', async () => {
    const server = await serve({ kind: 'trickle', status: STATUS, intervalMs: 50 });
    const { value: result, elapsedMs } = await timedProbe({ host: server.host, port: server.port }, 500);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.5 s', data: { target: `127.0.0.1:${server.port}` } });
    expect(elapsedMs).toBeLessThan(1500);
  });

  it('refuses a packet announcing 2 GB without waiting for it', async () => {
    const server = await serve({ kind: 'huge-length' });
    const { value: result, elapsedMs } = await timedProbe({ host: server.host, port: server.port });
    expect(result.error).toMatch(/^response too large: the server announced 2147483647 bytes/);
    expect(elapsedMs).toBeLessThan(500);
  });

  it('stops reading a server that sends forever', async () => {
    const server = await serve({ kind: 'endless' });
    const result = await probe({ host: server.host, port: server.port });
    expect(result.error).toMatch(/^response too large/);
    expect(server.openConnections()).toBe(0);
  });

  it('refuses a status larger than a vanilla client accepts', async () => {
    const server = await serve({
      kind: 'status',
      status: { ...STATUS, favicon: `data:image/png;base64,${'A'.repeat(200_000)}` },
    });
    expect((await probe({ host: server.host, port: server.port })).error).toMatch(/^response too large/);
  });

  it('times out on a server that accepts and stays silent', async () => {
    const server = await serve({ kind: 'silent' });
    expect((await probe({ host: server.host, port: server.port }, 400)).error).toBe('timed out after 0.4 s');
  });

  it('reports a closed port as connection refused', async () => {
    expect(await probe({ host: '127.0.0.1', port: await closedTcpPort() })).toMatchObject({
      ok: false,
      error: 'connection refused',
    });
  });
});

describe('minecraft-java against minecraft-protocol', () => {
  it("reads the status of minecraft-protocol's own server", async () => {
    const server = mc.createServer({
      'online-mode': false,
      host: '127.0.0.1',
      port: 0,
      motd: '§aA §lreal§r server',
      maxPlayers: 42,
      version: '1.21.4',
    });
    try {
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      // minecraft-protocol does not type the net.Server it listens with.
      const { port } = (server as unknown as { socketServer: { address(): { port: number } } }).socketServer.address();
      const result = await probe({ host: '127.0.0.1', port });
      expect(result).toMatchObject({
        ok: true,
        message: '0/42 players · 1.21.4',
        data: {
          players: 0,
          maxPlayers: 42,
          version: '1.21.4',
          protocol: 769,
          motd: 'A real server',
          favicon: false,
        },
      });
    } finally {
      server.close();
    }
  });
});

describe('minecraft-java names against minecraft-protocol', () => {
  it('lists a player logged in to a real server, as its status sample shows them', async () => {
    // A vanilla server fills the sample with who is online; minecraft-protocol leaves it to beforePing.
    const server = mc.createServer({
      'online-mode': false,
      host: '127.0.0.1',
      port: 0,
      version: '1.21.4',
      beforePing: (response) => {
        const online = Object.values(server.clients).filter((client) => client.username);
        response.players.sample = online.map((client) => ({ name: client.username, id: client.uuid }));
        return response;
      },
    });
    const client = await new Promise<mc.Client>((resolve) => {
      server.once('listening', () => {
        const { port } = (
          server as unknown as { socketServer: { address(): { port: number } } }
        ).socketServer.address();
        const joining = mc.createClient({
          host: '127.0.0.1',
          port,
          username: 'Alex',
          version: '1.21.4',
          auth: 'offline',
        });
        joining.on('error', () => {});
        server.on('playerJoin', () => resolve(joining));
      });
    });
    try {
      const { port } = (server as unknown as { socketServer: { address(): { port: number } } }).socketServer.address();
      const result = await probe({ host: '127.0.0.1', port, playerNames: true });
      expect(result).toMatchObject({ ok: true, message: '1/20 players · 1.21.4', data: { playerNames: ['Alex'] } });
    } finally {
      client.end();
      server.close();
    }
  });
});

describe('minecraft-java through runProbe', () => {
  it('answers a status', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    const result = await leavingNothingOpen(() =>
      runProbe(minecraftJava, { host: server.host, port: server.port }, { timeoutMs: 1000, guard: ANY_TARGET }),
    );
    expect(result).toMatchObject({
      ok: true,
      message: '3/20 players · 1.21.4',
      data: { motd: 'Welcome to Warden!\nsecond line' },
    });
  });

  it('times out on a silent server and leaves nothing open', async () => {
    const server = await serve({ kind: 'silent' });
    const result = await leavingNothingOpen(() =>
      runProbe(minecraftJava, { host: server.host, port: server.port }, { timeoutMs: 300, guard: ANY_TARGET }),
    );
    expect(result).toMatchObject({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('refuses an invalid config', async () => {
    expect(
      await runProbe(minecraftJava, { host: 'mc.example.test', port: 70000 }, { timeoutMs: 300, guard: ANY_TARGET }),
    ).toEqual({
      ok: false,
      error: 'invalid config: expected an integer from 1 to 65535',
    });
  });
});
