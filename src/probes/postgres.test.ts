// The postgres probe against the real PostgreSQL here (trust auth) and, for what trust cannot show (a password asked
// and refused), a fake speaking the protocol byte for byte; plus silence, a closed port and the deny policy.
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { startPostgresFake } from '../../test/fakes/postgres-server.js';
import {
  checkAgainst,
  checksAgainst,
  closedTcpPort,
  leavingNothingOpen,
  runThrough,
} from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { ANSWER_LIMITS } from './answer.js';
import { saltingsSoFar } from './codecs/scram.js';
import { postgres, postgresConfig } from './postgres.js';

const REAL = REAL_SERVICES.postgres;
const available = await serviceAvailable(REAL);
const real = { host: REAL.host, port: REAL.port, user: 'postgres', database: 'test' };
const { check, timedCheck } = checksAgainst(postgres, real);

describeAgainst(REAL, available, () => {
  it('logs in and names the server version when there is no query', async () => {
    const result = await check({});
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^logged in as postgres, PostgreSQL \d+\.\d+/),
      data: { serverVersion: expect.stringMatching(/^\d+/) },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('runs a query and compares the first value of its first row', async () => {
    expect(await check({ query: 'SELECT 40 + 2 AS answer, 7', expected: '42' })).toMatchObject({
      ok: true,
      message: 'SELECT 40 + 2 AS answer, 7 → 42',
      data: { answer: '42', rows: 1 },
    });
    expect(await check({ query: "SELECT 'pg is ' || 'up'", expected: '/^pg is (up|ready)$/' })).toMatchObject({
      ok: true,
    });
  });

  it('is down when the answer is not the expected one, showing both', async () => {
    const result = await check({ query: 'SELECT 40 + 2', expected: '43' });
    expect(result).toMatchObject({ ok: false, error: 'expected "43", got "42"', data: { answer: '42' } });
  });

  it('compares an empty answer when the query returns no rows', async () => {
    const result = await check({ query: 'SELECT 1 WHERE false', expected: 'anything' });
    expect(result).toMatchObject({ ok: false, error: 'expected "anything", got (nothing)', data: { rows: 0 } });
  });

  it("is down with the server's words for a failing query or a missing database", async () => {
    expect(await check({ query: 'SELECT * FROM no_such_table' })).toEqual({
      ok: false,
      error: 'relation "no_such_table" does not exist (42P01)',
    });
    expect(await check({ database: 'no_such_database' })).toEqual({
      ok: false,
      error: 'database "no_such_database" does not exist (3D000)',
    });
  });

  it('gives up on an answer above the read cap rather than holding it', async () => {
    const size = ANSWER_LIMITS.readBytes + 100_000;
    expect(await check({ query: `SELECT repeat('x', ${size})` })).toEqual({
      ok: false,
      error: 'the server sent more than 1024 KiB',
    });
  });

  it('stops a query at the timeout, the server told to stop it too (statement_timeout)', async () => {
    const { value, elapsedMs } = await timedCheck({ query: 'SELECT pg_sleep(5)' }, 500);
    expect(value).toEqual({ ok: false, error: timedOutAfter(500) });
    expect(elapsedMs).toBeLessThan(1000);
  });

  it('says so when TLS is asked of a server without it', async () => {
    expect(await check({ tls: true })).toEqual({ ok: false, error: 'The server does not support SSL connections' });
  });
});

describe('postgres against a fake that asks for a password', () => {
  it('logs in with the password, sends who and what it is, and runs the query', async () => {
    const fake = await startPostgresFake({ password: 's3cret-pw', answer: 'ready' });
    const { result } = await checkAgainst(
      fake,
      postgres,
      {
        host: '127.0.0.1',
        port: fake.port,
        user: 'warden',
        password: 's3cret-pw',
        query: 'SELECT state',
        expected: 'ready',
      },
      2000,
      's3cret-pw',
    );
    expect(result).toMatchObject({ ok: true, message: 'SELECT state → ready', data: { serverVersion: '16.4 (fake)' } });
    expect(fake.startups[0]).toMatchObject({
      user: 'warden',
      database: 'postgres',
      application_name: 'warden',
      statement_timeout: '2000',
    });
    expect(fake.queries).toEqual(['SELECT state']);
  });

  it('is down on a wrong password, cleartext or SCRAM, in the server words, without the password', async () => {
    // scram_iterations may be set below RFC 7677's 4,096 in PostgreSQL 16; libpq and pg take it, and so does the probe.
    for (const scramIterations of [undefined, 1000]) {
      const fake = await startPostgresFake({ password: 'the-real-one', scramIterations });
      const { result } = await checkAgainst(
        fake,
        postgres,
        { host: '127.0.0.1', port: fake.port, user: 'warden', password: 'wrong-Pa55' },
        2000,
        'wrong-Pa55',
      );
      expect(result).toEqual({ ok: false, error: 'password authentication failed for user "warden" (28P01)' });
    }
  });

  it('logs in with SCRAM-SHA-256, salting the password once for all its checks', async () => {
    const fake = await startPostgresFake({ password: 'scram-Pa55', answer: 'ready', scramIterations: 4096 });
    const config = { host: '127.0.0.1', port: fake.port, user: 'warden', password: 'scram-Pa55', query: 'SELECT 1' };
    try {
      const before = saltingsSoFar();
      const first = await leavingNothingOpen(() => runThrough(postgres, config, 2000));
      expect(first).toMatchObject({ ok: true, message: 'SELECT 1 → ready' });
      expect(saltingsSoFar()).toBe(before + 1);
      // The same user, salt and count: the kept salted password, no PBKDF2.
      const second = await leavingNothingOpen(() => runThrough(postgres, config, 2000));
      expect(second).toMatchObject({ ok: true, message: 'SELECT 1 → ready' });
      expect(saltingsSoFar()).toBe(before + 1);
      expect(fake.queries).toEqual(['SELECT 1', 'SELECT 1']);
    } finally {
      await fake.close();
    }
  });

  it('scrubs the password from a server that echoes it', async () => {
    const fake = await startPostgresFake({ password: 'x', refusal: 'no such password: %s' });
    const { result } = await checkAgainst(
      fake,
      postgres,
      { host: '127.0.0.1', port: fake.port, password: 'echoed-Pa55' },
      2000,
      'echoed-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'no such password: *** (28P01)' });
  });
});

describe('postgres where nothing answers', () => {
  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, postgres, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(postgres, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny, for a private address or a name of one', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const result = await leavingNothingOpen(() =>
        runThrough(postgres, { host, port: 5432 }, 2000, PUBLIC_TARGETS_ONLY),
      );
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
      });
    }
  });
});

describe('postgres config', () => {
  it('fills the defaults and names the field of a mistake', () => {
    expect(postgresConfig.parse({ host: 'db.example.test' })).toEqual({
      host: 'db.example.test',
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      tls: false,
      ignoreTls: false,
    });
    const issues = (config: unknown) =>
      postgresConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'db', expected: '1' })).toEqual([['expected', 'expected needs a query']]);
    expect(issues({ host: 'db', query: 'SELECT 1', expected: '/(/' })).toEqual([
      ['expected', 'expected a valid /regular expression/flags'],
    ]);
    expect(issues({ host: 'db', password: '' })).toEqual([['password', 'the PostgreSQL password must not be empty']]);
  });
});
