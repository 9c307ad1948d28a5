// The udp monitor against UDP sockets that answer, answer something else, flood, or say nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { startUdpBlackHole } from '../../test/fakes/black-holes.js';
import { checkAgainst, closedUdpPort, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { startUdpResponder, type UdpResponder } from '../../test/fakes/service-servers.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { udp } from './udp.js';

const responders: UdpResponder[] = [];
afterEach(async () => {
  await Promise.all(responders.splice(0).map((responder) => responder.close()));
});
async function answering(answer: Parameters<typeof startUdpResponder>[0]): Promise<UdpResponder> {
  const responder = await startUdpResponder(answer);
  responders.push(responder);
  return responder;
}

/** An SNTP server's answer to a client request (RFC 4330): mode 4, stratum 2, 48 bytes. */
function ntpAnswer(): Buffer {
  const packet = Buffer.alloc(48);
  packet[0] = 0x24; // LI 0, version 4, mode 4 (server)
  packet[1] = 2;
  return packet;
}

describe('udp probe', () => {
  it('sends the payload and is up with the answer that contains what is expected', async () => {
    const echo = await startUdpResponder((datagram) => [Buffer.concat([Buffer.from('PONG '), datagram])]);
    const { result } = await checkAgainst(
      echo,
      udp,
      { host: '127.0.0.1', port: echo.port, payload: 'hello', expect: 'PONG' },
      1500,
    );
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^10 bytes in \d+ ms: "PONG hello"$/),
      data: { answerBytes: 10, answer: 'PONG hello' },
    });
    expect(echo.datagrams().map(String)).toEqual(['hello']);
  });

  it('speaks bytes in hex: an SNTP request answered by mode 4', async () => {
    const ntp = await answering((datagram) => (datagram.length === 48 && datagram[0] === 0x23 ? [ntpAnswer()] : []));
    const request = `23${'00'.repeat(47)}`;
    const result = await probeDirectly(udp, {
      host: '127.0.0.1',
      port: ntp.port,
      payload: request,
      encoding: 'hex',
      expect: '24 02',
    });
    expect(result).toMatchObject({ ok: true, data: { answerBytes: 48, answer: `2402${'00'.repeat(46)}` } });
    expect(ntp.datagrams()[0]?.toString('hex')).toBe(request);
  });

  it('is down when the answer lacks the expected bytes, showing the start of it', async () => {
    const server = await answering(() => [Buffer.from('ERR busy\n')]);
    expect(
      await probeDirectly(udp, { host: '127.0.0.1', port: server.port, payload: 'status', expect: 'OK' }),
    ).toMatchObject({
      ok: false,
      error: 'the answer does not contain "OK": "ERR busy\\n"',
    });
  });

  it('reads one datagram of a flood, and shows at most 200 characters of it', async () => {
    const server = await answering(() => Array.from({ length: 50 }, () => Buffer.alloc(60_000, 'a')));
    const result = await probeDirectly(udp, { host: '127.0.0.1', port: server.port, payload: 'x' });
    expect(result).toMatchObject({ ok: true, data: { answerBytes: 60_000, answer: `${'a'.repeat(200)}…` } });
  });

  it('says nothing listens when the port is unreachable', async () => {
    expect(await probeDirectly(udp, { host: '127.0.0.1', port: await closedUdpPort(), payload: 'x' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^nothing listens on UDP port \d+ \(port unreachable\)$/),
    });
  });

  it('times out when nothing answers', async () => {
    const hole = await startUdpBlackHole();
    const { result, elapsedMs } = await checkAgainst(
      hole,
      udp,
      { host: '127.0.0.1', port: hole.port, payload: 'x' },
      300,
    );
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(elapsedMs).toBeLessThan(800);
  });

  it('refuses a private target under deny, sending nothing', async () => {
    const server = await answering(() => [Buffer.from('pong')]);
    const result = await runThrough(
      udp,
      { host: '127.0.0.1', port: server.port, payload: 'ping' },
      1500,
      PUBLIC_TARGETS_ONLY,
    );
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect(server.datagrams()).toEqual([]);
  });

  it('names the field that is wrong', () => {
    const issues = (config: Record<string, unknown>) =>
      udp.config.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'ntp.example.test', port: 123, payload: '1b0', encoding: 'hex' })).toEqual([
      ['payload', 'expected pairs of hex digits'],
    ]);
    expect(issues({ host: 'ntp.example.test', port: 123, payload: 'AA==', encoding: 'base64', expect: '!!' })).toEqual([
      ['expect', 'expected base64'],
    ]);
    expect(issues({ host: 'ntp.example.test', port: 123, payload: 'x'.repeat(1401) })).toEqual([
      ['payload', 'expected at most 1400 bytes'],
    ]);
    expect(issues({ host: 'ntp.example.test', port: 123 })).toEqual([['payload', 'expected the payload as a string']]);
  });
});
