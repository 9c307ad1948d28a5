// The tcp monitor against listening and closed ports on the loopback interface.
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { tcp } from './tcp.js';

let server: Server;
let port: number;
let closedPort: number;

function listen(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Connections are closed at once: the monitor only needs the handshake.
    const s = createServer((socket) => socket.destroy());
    s.once('error', reject);
    s.listen(0, host, () => resolve(s));
  });
}

const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

beforeAll(async () => {
  server = await listen('127.0.0.1');
  port = (server.address() as AddressInfo).port;
  const closed = await listen('127.0.0.1');
  closedPort = (closed.address() as AddressInfo).port;
  await close(closed);
});
afterAll(() => close(server));

function check(config: Record<string, unknown>, signal: AbortSignal = AbortSignal.timeout(1000), timeoutMs = 1000) {
  return probeDirectly(tcp, config, timeoutMs, signal);
}

describe('tcp probe', () => {
  it('is up when the port accepts a connection, with the handshake time', async () => {
    const result = await check({ host: '127.0.0.1', port });
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(new RegExp(`^port ${port} open in \\d+ ms$`)),
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await check({ host: '127.0.0.1', port: closedPort })).toEqual({ ok: false, error: 'connection refused' });
  });

  it('times out when its signal is already aborted', async () => {
    expect(await check({ host: '127.0.0.1', port }, AbortSignal.abort(), 500)).toEqual({
      ok: false,
      error: 'timed out after 0.5 s',
    });
  });

  it('times out when its signal aborts before the handshake completes', async () => {
    const controller = new AbortController();
    const pending = check({ host: '127.0.0.1', port }, controller.signal, 300);
    // The handshake needs a turn of the event loop; aborting now is the timeout firing mid-connect.
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('connects to a bracketed IPv6 address', async (ctx) => {
    const v6 = await listen('::1').catch(() => undefined);
    if (!v6) return ctx.skip('no IPv6 loopback here');
    try {
      expect(await check({ host: '[::1]', port: (v6.address() as AddressInfo).port })).toMatchObject({ ok: true });
    } finally {
      await close(v6);
    }
  });

  it('runs through runProbe', async () => {
    expect(await runThrough(tcp, { host: '127.0.0.1', port }, 1000)).toMatchObject({ ok: true });
    expect(await runThrough(tcp, { host: '127.0.0.1', port: closedPort }, 1000)).toEqual({
      ok: false,
      error: 'connection refused',
    });
    expect(await runThrough(tcp, { host: '127.0.0.1', port: 70000 }, 1000)).toMatchObject({
      ok: false,
      error: 'invalid config: expected an integer from 1 to 65535',
    });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await check({ host: '127.0.0.1', port });
    await check({ host: '127.0.0.1', port: closedPort });
    const controller = new AbortController();
    const pending = check({ host: '127.0.0.1', port }, controller.signal);
    controller.abort();
    await pending;
    expect(await leakedResources(before)).toEqual({});
  });
});
