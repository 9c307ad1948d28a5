// The mongodb probe against a byte-exact fake server (hello over OP_QUERY and OP_MSG, SCRAM-SHA-256 and SCRAM-SHA-1
// with the proof checked; the official driver logs in to it too, which keeps it honest), and against a real mongod
// when this machine has one; plus impostors, servers of other protocols, silence, a closed port and the deny policy.
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { startReplyServer } from '../../test/fakes/echo-server.js';
import { startMongoFake } from '../../test/fakes/mongodb-server.js';
import { checkAgainst, closedTcpPort, leavingNothingOpen, runThrough } from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { saltingsSoFar } from './codecs/scram.js';
import { mongodb, mongodbConfig } from './mongodb.js';
import { readCapError } from './session.js';

const REAL = REAL_SERVICES.mongodb;
const available = await serviceAvailable(REAL);
const USER = { name: 'monitor', password: 'right-Pa55word' };

describeAgainst(REAL, available, () => {
  it('pings the server', async () => {
    const result = await leavingNothingOpen(() =>
      runThrough(mongodb, { host: REAL.host, port: REAL.port, jsonPath: 'ok', expected: '1' }, 3000),
    );
    expect(result).toMatchObject({ ok: true, message: 'ping ok → 1' });
  });
});

describe('mongodb against a fake server', () => {
  it('logs in with SCRAM-SHA-256 and pings', async () => {
    const fake = await startMongoFake({ user: USER });
    const { result } = await checkAgainst(
      fake,
      mongodb,
      { host: '127.0.0.1', port: fake.port, username: USER.name, password: USER.password },
      3000,
      USER.password,
    );
    expect(result).toMatchObject({ ok: true, message: 'ping → {"ok":1}', data: { answer: '{"ok":1}' } });
    expect(fake.commands).toEqual(expect.arrayContaining(['saslStart', 'saslContinue', 'ping']));
  });

  it("salts the password once for all of a monitor's checks", async () => {
    const fake = await startMongoFake({ user: USER });
    const config = { host: '127.0.0.1', port: fake.port, username: USER.name, password: USER.password };
    try {
      const before = saltingsSoFar();
      for (let check = 0; check < 3; check++)
        expect(await runThrough(mongodb, config, 3000)).toMatchObject({ ok: true, message: 'ping → {"ok":1}' });
      expect(saltingsSoFar()).toBe(before + 1);
    } finally {
      await fake.close();
    }
  });

  it('logs in with SCRAM-SHA-1 where the server offers no SCRAM-SHA-256 for the user', async () => {
    const fake = await startMongoFake({ user: USER, mechanisms: ['SCRAM-SHA-1'] });
    const config = { host: '127.0.0.1', port: fake.port, username: USER.name, password: USER.password };
    const { result } = await checkAgainst(fake, mongodb, config, 3000, USER.password);
    expect(result).toMatchObject({ ok: true, message: 'ping → {"ok":1}' });
  });

  it('greets a server from before hello with isMaster', async () => {
    const fake = await startMongoFake({ user: USER, beforeHello: true });
    const config = { host: '127.0.0.1', port: fake.port, username: USER.name, password: USER.password };
    const { result } = await checkAgainst(fake, mongodb, config, 3000);
    expect(result).toMatchObject({ ok: true, message: 'ping → {"ok":1}' });
    expect(fake.commands).toEqual(['hello', 'isMaster', 'saslStart', 'saslContinue', 'ping']);
  });

  it('is down when the server cannot prove it knows the password, and runs nothing there', async () => {
    const fake = await startMongoFake({ user: USER, impostor: true });
    const config = { host: '127.0.0.1', port: fake.port, username: USER.name, password: USER.password };
    const { result } = await checkAgainst(fake, mongodb, config, 3000, USER.password);
    expect(result).toEqual({
      ok: false,
      error: "authentication failed: the server's signature does not prove it knows the password",
    });
    expect(fake.commands).not.toContain('ping');
  });

  it('stops reading a reply longer than a check reads', async () => {
    const fake = await startMongoFake({ padding: 2 * 1024 * 1024 });
    const { result } = await checkAgainst(fake, mongodb, { host: '127.0.0.1', port: fake.port }, 3000);
    expect(result).toEqual({ ok: false, error: readCapError() });
  });

  it('says when the server speaks another protocol', async () => {
    const web = await startReplyServer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const { result } = await checkAgainst(web, mongodb, { host: '127.0.0.1', port: web.port }, 3000);
    expect(result).toEqual({
      ok: false,
      error: 'not a MongoDB server (3.6 or later): its answer began "HTTP/1.1 400 Bad Request…"',
    });
  });

  it('answers the official driver as a server would (what keeps this fake honest)', async () => {
    for (const mechanisms of [['SCRAM-SHA-256'], ['SCRAM-SHA-1']] as const) {
      const fake = await startMongoFake({ user: USER, mechanisms: [...mechanisms] });
      const client = new MongoClient(`mongodb://127.0.0.1:${fake.port}/`, {
        directConnection: true,
        auth: { username: USER.name, password: USER.password },
        serverSelectionTimeoutMS: 3000,
      });
      try {
        expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
        expect(fake.commands).toEqual(expect.arrayContaining(['saslStart', 'saslContinue', 'ping']));
      } finally {
        await client.close(true);
        await fake.close();
      }
    }
  });

  it('compares a value of the reply', async () => {
    const fake = await startMongoFake({ count: 3 });
    const config = {
      host: '127.0.0.1',
      port: fake.port,
      database: 'app',
      command: '{"count": "jobs", "query": {"state": "failed"}}',
      jsonPath: 'n',
    };
    const { result } = await checkAgainst(fake, mongodb, { ...config, expected: '0' }, 3000);
    expect(result).toMatchObject({ ok: false, error: 'expected "0", got "3"', data: { answer: '3' } });
  });

  it('is down on a wrong password, in the server words, without the password', async () => {
    const fake = await startMongoFake({ user: USER });
    const { result } = await checkAgainst(
      fake,
      mongodb,
      { host: '127.0.0.1', port: fake.port, username: USER.name, password: 'wrong-Pa55' },
      3000,
      'wrong-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'authentication failed: Authentication failed.' });
  });

  it("is down with the server's words for a command it does not know", async () => {
    const fake = await startMongoFake();
    const { result } = await checkAgainst(
      fake,
      mongodb,
      { host: '127.0.0.1', port: fake.port, command: '{"noSuchCommand": 1}' },
      3000,
    );
    expect(result).toEqual({ ok: false, error: "no such command: 'noSuchCommand' (CommandNotFound)" });
  });

  it('never shows a password the reply holds', async () => {
    const fake = await startMongoFake({ user: USER });
    const config = {
      host: '127.0.0.1',
      port: fake.port,
      username: USER.name,
      password: USER.password,
      command: `{"echo": "${USER.password}"}`,
    };
    const { result } = await checkAgainst(fake, mongodb, config, 3000, USER.password);
    expect(result).toMatchObject({ ok: true, message: 'echo → {"echo":"***","ok":1}' });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, mongodb, { host: hole.host, port: hole.port }, 500);
    expect(result).toEqual({ ok: false, error: timedOutAfter(500) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(mongodb, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny, for an address or a name of one', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const result = await leavingNothingOpen(() => runThrough(mongodb, { host }, 2000, PUBLIC_TARGETS_ONLY));
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
      });
    }
  });
});

describe('mongodb config', () => {
  it('fills the defaults and names the field of a mistake', () => {
    expect(mongodbConfig.parse({ host: 'db' })).toEqual({
      host: 'db',
      port: 27017,
      authSource: 'admin',
      database: 'admin',
      tls: false,
      ignoreTls: false,
      command: '{"ping": 1}',
    });
    const issues = (config: unknown) =>
      mongodbConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'db', command: '[1]' })).toEqual([
      ['command', 'expected a command as a JSON object, e.g. {"ping": 1}'],
    ]);
    expect(issues({ host: 'db', username: 'u' })).toEqual([['password', 'a username needs a password']]);
  });
});
