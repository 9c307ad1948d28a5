// The ping monitor in TCP mode, against a listener and a closed port.
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakedResources, quietResources } from '../../test/fakes/handles.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { ping } from './ping.js';

function check(config: Record<string, unknown>, timeoutMs = 3000, signal?: AbortSignal) {
  return probeDirectly(ping, config, timeoutMs, signal ?? AbortSignal.timeout(timeoutMs));
}

describe('ping in tcp mode', () => {
  let server: Server;
  let port: number;
  let closedPort: number;
  const listen = () =>
    new Promise<Server>((resolve) => {
      const s = createServer((socket) => socket.destroy());
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
  const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));
  beforeAll(async () => {
    server = await listen();
    port = (server.address() as AddressInfo).port;
    const closed = await listen();
    closedPort = (closed.address() as AddressInfo).port;
    await close(closed);
  });
  afterAll(() => close(server));

  it('is up when every connection opens, timing each handshake', async () => {
    const result = await check({ host: '127.0.0.1', mode: 'tcp', port });
    expect(result).toMatchObject({ ok: true, message: expect.stringMatching(/^3\/3 answered, [\d.]+ ms average/) });
    expect(result.data).toMatchObject({ address: '127.0.0.1', mode: 'tcp', sent: 3, received: 3, lossPercent: 0 });
  });

  it('is down on a closed port, saying why', async () => {
    expect(await check({ host: '127.0.0.1', mode: 'tcp', port: closedPort, count: 2 })).toEqual({
      ok: false,
      error: `no connection to port ${closedPort} in 2 attempts: connection refused`,
      data: { address: '127.0.0.1', mode: 'tcp', sent: 2, received: 0, lossPercent: 100 },
    });
  });

  it('is degraded when some connections fail, unless the loss is within the threshold', async () => {
    // A listener that stops listening after its first connection: the next attempts are refused.
    const once = async () => {
      const s = createServer((socket) => {
        socket.destroy();
        s.close();
      });
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return (s.address() as AddressInfo).port;
    };
    const lossy = await check({ host: '127.0.0.1', mode: 'tcp', port: await once() });
    expect(lossy).toMatchObject({
      ok: true,
      degraded: true,
      message: expect.stringMatching(/^1\/3 answered, 67% loss/),
      data: { received: 1, lossPercent: 67 },
    });
    const tolerated = await check({ host: '127.0.0.1', mode: 'tcp', port: await once(), degradedLossPercent: 70 });
    expect(tolerated).toMatchObject({ ok: true, message: expect.stringMatching(/^1\/3 answered, [\d.]+ ms/) });
    expect(tolerated.degraded).toBeUndefined();
  });

  it('wants a port, and counts of 1 to 10', async () => {
    expect(await runThrough(ping, { host: '127.0.0.1', mode: 'tcp' })).toEqual({
      ok: false,
      error: 'invalid config: tcp mode needs a port',
    });
    expect(await runThrough(ping, { host: '127.0.0.1', count: 11 })).toEqual({
      ok: false,
      error: 'invalid config: expected a whole number of pings from 1 to 10',
    });
  });

  it('leaves no socket or timer open, finished or aborted', async () => {
    const before = await quietResources();
    await check({ host: '127.0.0.1', mode: 'tcp', port });
    await check({ host: '127.0.0.1', mode: 'tcp', port: closedPort });
    const controller = new AbortController();
    const pending = check({ host: '127.0.0.1', mode: 'tcp', port, count: 10 }, 3000, controller.signal);
    setTimeout(() => controller.abort(), 700);
    expect(await pending).toEqual({ ok: false, error: 'timed out after 3 s' });
    expect(await leakedResources(before)).toEqual({});
  });
});
