// The redis probe against the real Redis here (no password) and fakes for what it cannot show: an echo of the AUTH
// command, an oversized reply; plus silence, a closed port and the deny policy.
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { serverCertificate } from '../../test/fakes/certificates.js';
import { startEchoServer, startReplyServer } from '../../test/fakes/echo-server.js';
import { checkAgainst, closedTcpPort, leavingNothingOpen, runThrough } from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { ANSWER_LIMITS } from './answer.js';
import { encodeCommand, RespError, readResp, splitCommand } from './codecs/resp.js';
import { redis, redisConfig } from './redis.js';

const REAL = REAL_SERVICES.redis;
const available = await serviceAvailable(REAL);
const check = (config: Record<string, unknown>, timeoutMs = 2000) =>
  leavingNothingOpen(() => runThrough(redis, { host: REAL.host, port: REAL.port, ...config }, timeoutMs));

describeAgainst(REAL, available, () => {
  it('answers PING with PONG by default', async () => {
    expect(await check({ expected: 'PONG' })).toMatchObject({
      ok: true,
      message: 'PING → PONG',
      data: { answer: 'PONG' },
    });
  });

  it('runs a command with quoted arguments and compares the reply', async () => {
    expect(await check({ command: 'SET warden:probe:test "all good"', expected: 'OK' })).toMatchObject({ ok: true });
    expect(await check({ command: 'GET warden:probe:test', expected: 'all good' })).toMatchObject({
      ok: true,
      message: 'GET warden:probe:test → all good',
    });
    expect(await check({ command: 'GET warden:probe:missing' })).toMatchObject({ ok: true, data: { answer: 'null' } });
    expect(await check({ command: 'EXISTS warden:probe:test', expected: '/^[1-9]/' })).toMatchObject({
      ok: true,
      data: { answer: '1' },
    });
  });

  it('is down when the reply is not the expected one', async () => {
    expect(await check({ command: 'ECHO hello', expected: 'goodbye' })).toMatchObject({
      ok: false,
      error: 'expected "goodbye", got "hello"',
    });
  });

  it("is down on a wrong password, in the server's words, without the password", async () => {
    const result = await check({ username: 'nobody', password: 'wrong-Pa55' });
    expect(result).toEqual({
      ok: false,
      error: 'authentication failed: WRONGPASS invalid username-password pair or user is disabled.',
    });
  });

  it("is down on an unknown command, in the server's words", async () => {
    expect(await check({ command: 'NOSUCHCOMMAND x' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^NOSUCHCOMMAND failed: ERR unknown command 'NOSUCHCOMMAND'/),
    });
  });
});

describe('redis against fakes', () => {
  it('never shows the password a server repeats to it', async () => {
    const echo = await startEchoServer();
    const { result } = await checkAgainst(
      echo,
      redis,
      { host: '127.0.0.1', port: echo.port, password: 'echoed-Pa55' },
      1000,
      'echoed-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'not a Redis server: AUTH answered ["AUTH","***"]' });
  });

  it('gives up on a reply above the read cap', async () => {
    const huge = await startReplyServer(
      `$${ANSWER_LIMITS.readBytes * 2}\r\n${'x'.repeat(ANSWER_LIMITS.readBytes + 10)}`,
    );
    const { result } = await checkAgainst(huge, redis, { host: '127.0.0.1', port: huge.port }, 2000);
    expect(result).toEqual({ ok: false, error: 'the server sent more than 1024 KiB' });
  });

  it('says what it got from something that is not Redis', async () => {
    const http = await startReplyServer('HTTP/1.1 400 Bad Request\r\n\r\n');
    const { result } = await checkAgainst(http, redis, { host: '127.0.0.1', port: http.port }, 1000);
    expect(result).toEqual({ ok: false, error: 'not a Redis server: unexpected reply type "H"' });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, redis, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(redis, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny', async () => {
    const result = await leavingNothingOpen(() =>
      runThrough(redis, { host: 'localhost', tls: true }, 2000, PUBLIC_TARGETS_ONLY),
    );
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
    });
  });
});

describe('redis over TLS', () => {
  /** A TLS server with a self-signed certificate for localhost and 127.0.0.1 that answers anything with +PONG. */
  async function startTlsPong() {
    const sockets = new Set<TLSSocket>();
    const server = createTlsServer(await serverCertificate(), (socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
      socket.on('data', () => socket.write('+PONG\r\n'));
    });
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as { port: number }).port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  }

  it('speaks RESP over TLS, refusing a certificate it cannot verify unless told to ignore it', async () => {
    const strict = await startTlsPong();
    const refused = await checkAgainst(strict, redis, { host: '127.0.0.1', port: strict.port, tls: true }, 1500);
    expect(refused.result).toMatchObject({ ok: false, error: expect.stringMatching(/self-signed certificate/) });
    const server = await startTlsPong();
    const { result } = await checkAgainst(
      server,
      redis,
      { host: '127.0.0.1', port: server.port, tls: true, ignoreTls: true, expected: 'PONG' },
      1500,
    );
    expect(result).toMatchObject({ ok: true, message: 'PING → PONG' });
  });
});

describe('RESP', () => {
  it('encodes commands and splits command lines as redis-cli does', () => {
    expect(encodeCommand(['GET', 'k é']).toString()).toBe('*2\r\n$3\r\nGET\r\n$4\r\nk é\r\n');
    expect(splitCommand('SET key "two words" "a \\"quote\\""')).toEqual(['SET', 'key', 'two words', 'a "quote"']);
    expect(splitCommand('GET "unclosed')).toBeNull();
    expect(splitCommand('   ')).toBeNull();
  });

  it('reads every reply type, and waits for a reply that is not all there', () => {
    const bytes = Buffer.from('*4\r\n+OK\r\n:42\r\n$-1\r\n*1\r\n-ERR no\r\n');
    expect(readResp(bytes)).toEqual({ value: ['OK', 42, null, [new RespError('ERR no')]], end: bytes.length });
    expect(readResp(Buffer.from('$5\r\nhel'))).toBeUndefined();
    expect(() => readResp(Buffer.from('*99999999\r\n'))).toThrow('a reply too large to compare');
  });
});

describe('redis config', () => {
  it('names the field of a mistake', () => {
    const issues = (config: unknown) =>
      redisConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'cache', username: 'app' })).toEqual([['password', 'a username needs a password']]);
    expect(issues({ host: 'cache', command: 'GET "x' })).toEqual([
      ['command', 'expected a command and its arguments, "double-quoted" where they hold spaces'],
    ]);
  });
});
