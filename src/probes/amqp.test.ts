// The amqp probe against the real RabbitMQ here (guest on localhost), with a queue made for the test, and a byte-exact
// fake for refusals and echoes; plus silence, a closed port and the deny policy.
import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAmqpFake } from '../../test/fakes/amqp-server.js';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { startReplyServer } from '../../test/fakes/echo-server.js';
import { checkAgainst, closedTcpPort, leavingNothingOpen, runThrough } from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { amqp, amqpConfig } from './amqp.js';

const REAL = REAL_SERVICES.rabbitmq;
const available = await serviceAvailable(REAL);
const guest = { host: REAL.host, port: REAL.port, username: 'guest', password: 'guest' };
const check = (config: Record<string, unknown>, timeoutMs = 3000) =>
  leavingNothingOpen(() => runThrough(amqp, { ...guest, ...config }, timeoutMs));
const QUEUE = `warden-probe-test-${process.pid}`;

describeAgainst(REAL, available, () => {
  let connection: amqplib.ChannelModel | undefined;
  beforeAll(async () => {
    connection = await amqplib.connect(`amqp://guest:guest@${REAL.host}:${REAL.port}`);
    const channel = await connection.createChannel();
    await channel.assertQueue(QUEUE, { autoDelete: false, durable: false });
    await channel.purgeQueue(QUEUE);
    for (const n of [1, 2, 3]) channel.sendToQueue(QUEUE, Buffer.from(`message ${n}`));
    await channel.close();
  });
  afterAll(async () => {
    const channel = await connection?.createChannel();
    await channel?.deleteQueue(QUEUE);
    await connection?.close();
  });

  it('logs in to the virtual host and names the server', async () => {
    // guest's password is guest: the user name is scrubbed with it, as any text equal to a secret is.
    expect(await check({})).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^logged in as \*\*\* to \/, RabbitMQ \d+\.\d+/),
      data: { product: 'RabbitMQ' },
    });
  });

  it("reads a queue's messages and consumers, degraded above maxMessages, down below minConsumers", async () => {
    await expect.poll(async () => (await check({ queue: QUEUE })).data?.messages).toBe(3);
    expect(await check({ queue: QUEUE })).toMatchObject({
      ok: true,
      message: `${QUEUE}: 3 messages, 0 consumers`,
      data: { messages: 3, consumers: 0 },
    });
    expect(await check({ queue: QUEUE, maxMessages: 2 })).toMatchObject({
      ok: true,
      degraded: true,
      message: `${QUEUE}: 3 messages, 0 consumers, more than 2 waiting`,
    });
    expect(await check({ queue: QUEUE, minConsumers: 1 })).toMatchObject({
      ok: false,
      error: `${QUEUE}: 3 messages, 0 consumers, fewer than 1`,
    });
  });

  it('is down for a queue that does not exist, creating nothing', async () => {
    const result = await check({ queue: `${QUEUE}-missing` });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(new RegExp(`^queue ${QUEUE}-missing not found: NOT_FOUND - no queue`)),
    });
  });

  it("is down on a wrong password, in the server's words, without the password", async () => {
    const result = await check({ password: 'wrong-Pa55' });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^authentication failed: ACCESS_REFUSED - Login was refused/),
    });
    expect(JSON.stringify(result)).not.toContain('wrong-Pa55');
  });

  it('is down for a virtual host it may not open', async () => {
    expect(await check({ vhost: 'no-such-vhost' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^the server closed the connection: 530 NOT_ALLOWED/),
    });
  });
});

describe('amqp against fakes', () => {
  it('logs in with PLAIN, and never shows a password the server quotes', async () => {
    const fake = await startAmqpFake({ echo: true });
    const { result } = await checkAgainst(
      fake,
      amqp,
      { host: '127.0.0.1', port: fake.port, username: 'app', password: 'echoed-Pa55' },
      1000,
      'echoed-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'authentication failed: ACCESS_REFUSED - no user with password ***' });
    expect(fake.logins).toEqual(['\0app\0echoed-Pa55']);
  });

  it('says what it got from something that is not AMQP 0-9-1', async () => {
    const http = await startReplyServer('HTTP/1.1 400 Bad Request\r\n\r\n');
    const { result } = await checkAgainst(http, amqp, { host: '127.0.0.1', port: http.port }, 1000);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^not an AMQP 0-9-1 server: /) });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, amqp, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(amqp, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny', async () => {
    const result = await leavingNothingOpen(() => runThrough(amqp, { host: 'localhost' }, 2000, PUBLIC_TARGETS_ONLY));
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
    });
  });
});

describe('amqp config', () => {
  it('fills the defaults and names the field of a mistake', () => {
    expect(amqpConfig.parse({ host: 'mq' })).toEqual({
      host: 'mq',
      username: 'guest',
      vhost: '/',
      tls: false,
      ignoreTls: false,
    });
    const issues = (config: unknown) =>
      amqpConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'mq', maxMessages: 10 })).toEqual([['queue', 'maxMessages and minConsumers need a queue']]);
    expect(issues({ host: 'mq', queue: 'jobs', minConsumers: -1 })).toEqual([
      ['minConsumers', 'expected a whole number, 0 or more'],
    ]);
  });
});
