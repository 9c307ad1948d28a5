// The mysql probe against the real MariaDB here (root on 127.0.0.1, no password) and a byte-exact fake that echoes the
// queries it is sent; plus silence, a closed port and the deny policy.
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { startMysqlFake } from '../../test/fakes/mysql-server.js';
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
import { mysqlConfig, mysqlProbe } from './mysql.js';

const REAL = REAL_SERVICES.mariadb;
const available = await serviceAvailable(REAL);
const real = { host: REAL.host, port: REAL.port, user: 'root', database: 'test' };
const { check, timedCheck } = checksAgainst(mysqlProbe, real);

describeAgainst(REAL, available, () => {
  it('logs in and names the server version when there is no query', async () => {
    expect(await check({})).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^logged in as root, server \d+\.\d+\.\d+-MariaDB/),
      data: { serverVersion: expect.any(String) },
    });
  });

  it('runs a query and compares the first value of its first row', async () => {
    expect(await check({ query: 'SELECT 40 + 2, 7', expected: '42' })).toMatchObject({
      ok: true,
      message: 'SELECT 40 + 2, 7 → 42',
      data: { answer: '42', rows: 1 },
    });
    expect(await check({ query: "SELECT CONCAT('maria', 'db')", expected: '/^MARIADB$/i' })).toMatchObject({
      ok: true,
    });
  });

  it('is down when the answer is not the expected one, showing both', async () => {
    expect(await check({ query: 'SELECT 40 + 2', expected: '43' })).toMatchObject({
      ok: false,
      error: 'expected "43", got "42"',
    });
  });

  it('is down on a wrong password, in the server words, without the password', async () => {
    const result = await check({ password: 'wrong-Pa55word' });
    expect(result).toEqual({
      ok: false,
      error: "Access denied for user 'root'@'127.0.0.1' (using password: YES) (ER_ACCESS_DENIED_ERROR)",
    });
  });

  it("is down with the server's words for a failing query or a missing database", async () => {
    expect(await check({ query: 'SELECT * FROM no_such_table' })).toEqual({
      ok: false,
      error: "Table 'test.no_such_table' doesn't exist (ER_NO_SUCH_TABLE)",
    });
    expect(await check({ database: 'no_such_database' })).toEqual({
      ok: false,
      error: "Unknown database 'no_such_database' (ER_BAD_DB_ERROR)",
    });
  });

  it('gives up on an answer above the read cap rather than holding it', async () => {
    expect(await check({ query: `SELECT REPEAT('x', ${ANSWER_LIMITS.readBytes + 100_000})` })).toEqual({
      ok: false,
      error: 'the server sent more than 1024 KiB',
    });
  });

  it('stops a slow query at the timeout', async () => {
    const { value, elapsedMs } = await timedCheck({ query: 'SELECT SLEEP(5)' }, 500);
    expect(value).toEqual({ ok: false, error: timedOutAfter(500) });
    expect(elapsedMs).toBeLessThan(1000);
  });

  it('says so when TLS is asked of a server without it', async () => {
    expect(await check({ tls: true })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not support secure connection/i),
    });
  });
});

describe('mysql against a fake', () => {
  it('logs in as the user and sends the query as written', async () => {
    const fake = await startMysqlFake();
    const { result } = await checkAgainst(
      fake,
      mysqlProbe,
      { host: '127.0.0.1', port: fake.port, user: 'monitor', password: 'pw-1234', query: 'SELECT 1' },
      2000,
    );
    expect(result).toMatchObject({
      ok: true,
      message: 'SELECT 1 → SELECT 1',
      data: { serverVersion: '10.11.0-MariaDB-fake' },
    });
    expect(fake.users).toEqual(['monitor']);
    expect(fake.queries).toEqual(['SELECT 1']);
  });

  it('scrubs the password from an answer that holds it', async () => {
    const fake = await startMysqlFake();
    const { result } = await checkAgainst(
      fake,
      mysqlProbe,
      { host: '127.0.0.1', port: fake.port, password: 'echoed-Pa55', query: "SELECT 'echoed-Pa55'", expected: 'x' },
      2000,
      'echoed-Pa55',
    );
    expect(result).toMatchObject({ ok: false, error: `expected "x", got "SELECT '***'"` });
  });

  it('reports a refused login plainly', async () => {
    const fake = await startMysqlFake({ refuseLogins: true });
    const { result } = await checkAgainst(
      fake,
      mysqlProbe,
      { host: '127.0.0.1', port: fake.port, user: 'app', password: 'nope-Pa55' },
      2000,
      'nope-Pa55',
    );
    expect(result).toEqual({
      ok: false,
      error: "Access denied for user 'app'@'localhost' (using password: YES) (ER_ACCESS_DENIED_ERROR)",
    });
  });
});

describe('mysql where nothing answers', () => {
  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, mysqlProbe, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(mysqlProbe, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny', async () => {
    const result = await leavingNothingOpen(() =>
      runThrough(mysqlProbe, { host: 'localhost' }, 2000, PUBLIC_TARGETS_ONLY),
    );
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
    });
  });
});

describe('mysql config', () => {
  it('fills the defaults and names the field of a mistake', () => {
    expect(mysqlConfig.parse({ host: 'db.example.test' })).toEqual({
      host: 'db.example.test',
      port: 3306,
      user: 'root',
      tls: false,
      ignoreTls: false,
    });
    const issues = (config: unknown) =>
      mysqlConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'db', expected: '1' })).toEqual([['expected', 'expected needs a query']]);
    expect(issues({ host: 'db', port: 0 })).toEqual([['port', 'expected an integer from 1 to 65535']]);
  });
});
