// The nats probe against the real NATS server here (no auth) with a responder for requests, and a fake that asks for a
// password; plus silence, a closed port and the deny policy.
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { serverCertificate } from '../../test/fakes/certificates.js';
import { startGreetingServer } from '../../test/fakes/echo-server.js';
import { startNatsFake, startNatsResponder } from '../../test/fakes/nats-server.js';
import { checkAgainst, closedTcpPort, leavingNothingOpen, runThrough } from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { nats, natsConfig } from './nats.js';

const REAL = REAL_SERVICES.nats;
const available = await serviceAvailable(REAL);
const check = (config: Record<string, unknown>, timeoutMs = 2000) =>
  leavingNothingOpen(() => runThrough(nats, { host: REAL.host, port: REAL.port, ...config }, timeoutMs));

describeAgainst(REAL, available, () => {
  it('connects, pings and names the server version', async () => {
    expect(await check({})).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^connected, NATS \d+\.\d+\.\d+/),
      data: { serverVersion: expect.any(String) },
    });
  });

  it('sends a request and compares the reply', async () => {
    const responder = await startNatsResponder(REAL.port, 'warden.test.health', 'all good');
    try {
      expect(await check({ subject: 'warden.test.health', payload: 'status?', expected: 'all good' })).toMatchObject({
        ok: true,
        message: 'warden.test.health → all good',
      });
      expect(await check({ subject: 'warden.test.health', expected: 'degraded' })).toMatchObject({
        ok: false,
        error: 'expected "degraded", got "all good"',
      });
    } finally {
      await responder.close();
    }
  });

  it('says so at once when nobody answers on the subject', async () => {
    expect(await check({ subject: 'warden.test.nobody-home' })).toEqual({
      ok: false,
      error: 'no responders on warden.test.nobody-home',
    });
  });
});

describe('nats against fakes', () => {
  it('logs in with a user and password', async () => {
    const fake = await startNatsFake({ user: 'app', pass: 'right-Pa55' });
    const { result } = await checkAgainst(
      fake,
      nats,
      { host: '127.0.0.1', port: fake.port, username: 'app', password: 'right-Pa55' },
      1000,
      'right-Pa55',
    );
    expect(result).toMatchObject({ ok: true, message: 'connected, NATS 2.10.0', data: { serverName: 'fake-nats' } });
    expect(fake.connects[0]).toMatchObject({ user: 'app', pass: 'right-Pa55', name: 'warden' });
  });

  it('is down on a wrong password, without the password', async () => {
    const fake = await startNatsFake({ user: 'app', pass: 'right-Pa55' });
    const { result } = await checkAgainst(
      fake,
      nats,
      { host: '127.0.0.1', port: fake.port, username: 'app', password: 'wrong-Pa55' },
      1000,
      'wrong-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'authentication failed: Authorization Violation' });
  });

  it('never shows a password or token the server repeats', async () => {
    const fake = await startNatsFake({ user: 'app', pass: 'x', echo: true });
    const { result } = await checkAgainst(
      fake,
      nats,
      { host: '127.0.0.1', port: fake.port, username: 'app', password: 'echoed-Pa55' },
      1000,
      'echoed-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'the server said: Unknown password ***' });
  });

  it('starts TLS after the INFO when the server requires it, checking the certificate unless told not to', async () => {
    const certificate = await serverCertificate();
    const login = { host: '127.0.0.1', username: 'app', password: 'right-Pa55' };
    const plain = await startNatsFake({ user: 'app', pass: 'right-Pa55', certificate });
    expect((await checkAgainst(plain, nats, { ...login, port: plain.port }, 1500)).result).toEqual({
      ok: false,
      error: 'the server requires TLS: set tls',
    });
    const strict = await startNatsFake({ user: 'app', pass: 'right-Pa55', certificate });
    const refused = await checkAgainst(strict, nats, { ...login, port: strict.port, tls: true }, 1500);
    expect(refused.result).toMatchObject({ ok: false, error: expect.stringMatching(/self-signed certificate/) });
    const fake = await startNatsFake({ user: 'app', pass: 'right-Pa55', certificate });
    const { result } = await checkAgainst(
      fake,
      nats,
      { ...login, port: fake.port, tls: true, ignoreTls: true },
      1500,
      'right-Pa55',
    );
    expect(result).toMatchObject({ ok: true, message: 'connected, NATS 2.10.0' });
    expect(fake.connects[0]).toMatchObject({ user: 'app', pass: 'right-Pa55' });
  });

  it('says so when TLS is asked of a server that does not offer it', async () => {
    const fake = await startNatsFake({ user: 'app', pass: 'x' });
    expect((await checkAgainst(fake, nats, { host: '127.0.0.1', port: fake.port, tls: true }, 1000)).result).toEqual({
      ok: false,
      error: 'the server does not offer TLS',
    });
  });

  it('says what it got from something that is not NATS', async () => {
    const ssh = await startGreetingServer('SSH-2.0-OpenSSH_9.2\r\n');
    const { result } = await checkAgainst(ssh, nats, { host: '127.0.0.1', port: ssh.port }, 1000);
    expect(result).toEqual({ ok: false, error: 'not a NATS server: it said "SSH-2.0-OpenSSH_9.2"' });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, nats, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(nats, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny', async () => {
    const result = await leavingNothingOpen(() => runThrough(nats, { host: 'localhost' }, 2000, PUBLIC_TARGETS_ONLY));
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
    });
  });
});

describe('nats config', () => {
  it('names the field of a mistake', () => {
    const issues = (config: unknown) =>
      natsConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'bus', expected: 'x' })).toEqual([['expected', 'expected needs a subject']]);
    expect(issues({ host: 'bus', username: 'a' })).toEqual([['password', 'a username and a password go together']]);
    expect(issues({ host: 'bus', subject: 'health.>' })).toEqual([
      ['subject', 'expected a subject without blanks or wildcards, e.g. health.check'],
    ]);
  });
});
