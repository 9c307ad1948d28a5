// The minecraft-java probe's SRV lookup: which record it follows, when it falls back or skips it, a real DNS server.
import dns2 from 'dns2';
import { describe, expect, it } from 'vitest';
import { startFakeJavaServer } from '../../test/fakes/minecraft-java-server.js';
import { probe, STATUS } from '../../test/fakes/minecraft-java-status.js';
import { closedAfterEach } from '../../test/fakes/probe-runs.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { minecraftJavaConfig, resolveJavaTarget, type SrvLookup, systemSrvLookup } from './minecraft-java.js';

const serve = closedAfterEach(startFakeJavaServer);

describe('minecraft-java SRV lookup', () => {
  const config = (fields: Record<string, unknown>) => minecraftJavaConfig.parse({ host: 'mc.example.test', ...fields });
  const ctx = () => ({ signal: AbortSignal.timeout(1000), timeoutMs: 1000, guard: ANY_TARGET });
  const record = (name: string, port: number, priority = 0, weight = 0) => ({ name, port, priority, weight });

  it('connects to the target of the _minecraft._tcp record when no port is set', async () => {
    const server = await serve({ kind: 'status', status: STATUS });
    const asked: string[] = [];
    const lookup: SrvLookup = async (name) => {
      asked.push(name);
      return [record('127.0.0.1.', server.port)];
    };
    const result = await probe({ host: 'mc.example.test' }, 1000, lookup);
    expect(asked).toEqual(['_minecraft._tcp.mc.example.test']);
    expect(result).toMatchObject({ ok: true, data: { target: `127.0.0.1:${server.port}` } });
    // The handshake names the host the player typed, which proxies use to pick a backend.
    expect(server.handshakes[0]?.host).toBe('mc.example.test');
  });

  it('prefers the lowest priority, then the highest weight', async () => {
    const records = [record('c.test', 3, 20), record('a.test', 1, 10, 1), record('b.test', 2, 10, 5)];
    expect(await resolveJavaTarget(config({}), ctx(), async () => records)).toEqual({ host: 'b.test', port: 2 });
  });

  it('falls back to port 25565 when the lookup fails or finds nothing', async () => {
    const failing: SrvLookup = async () =>
      Promise.reject(Object.assign(new Error('queryNotFound'), { code: 'ENOTFOUND' }));
    expect(await resolveJavaTarget(config({}), ctx(), failing)).toEqual({ host: 'mc.example.test', port: 25565 });
    expect(await resolveJavaTarget(config({}), ctx(), async () => [])).toEqual({
      host: 'mc.example.test',
      port: 25565,
    });
  });

  it('skips the lookup when a port is set or the host is an IP address', async () => {
    const never: SrvLookup = async () => {
      throw new Error('should not be asked');
    };
    expect(await resolveJavaTarget(config({ port: 25570 }), ctx(), never)).toEqual({
      host: 'mc.example.test',
      port: 25570,
    });
    expect(await resolveJavaTarget(config({ host: '[::1]' }), ctx(), never)).toEqual({ host: '::1', port: 25565 });
  });

  it('gives up on a hanging lookup in time to fall back', async () => {
    const hanging: SrvLookup = (_, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
    const started = performance.now();
    expect(
      await resolveJavaTarget(
        config({}),
        { signal: AbortSignal.timeout(400), timeoutMs: 400, guard: ANY_TARGET },
        hanging,
      ),
    ).toEqual({ host: 'mc.example.test', port: 25565 });
    expect(performance.now() - started).toBeLessThan(350);
  });

  it('asks a real DNS server for the SRV record', async () => {
    const dns = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = dns2.Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        if (question?.name === '_minecraft._tcp.mc.example.test')
          response.answers.push(
            dns2.Packet.createResourceFromQuestion(question, {
              type: dns2.Packet.TYPE.SRV,
              class: dns2.Packet.CLASS.IN,
              ttl: 60,
              priority: 0,
              weight: 5,
              port: 25599,
              target: 'play.example.test',
            }),
          );
        send(response);
      },
    });
    await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
    try {
      const port = dns.addresses().udp?.port;
      const lookup = systemSrvLookup([`127.0.0.1:${port}`]);
      expect(await resolveJavaTarget(config({}), ctx(), lookup)).toEqual({ host: 'play.example.test', port: 25599 });
    } finally {
      await dns.close();
    }
  });
});
