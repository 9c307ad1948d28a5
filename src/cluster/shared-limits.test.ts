import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, redisAvailable, TcpProxy } from '../../test/cluster-harness.js';
import { SYSTEM_MAIL_LIMITS } from '../domain/system-mail.js';
import { createLogger } from '../logger.js';
import { createSystemMailLimiter } from '../notify/mail/system-mail-limits.js';
import { createPushRateLimiter, type PushRateDecision } from '../services/push/rate-limit.js';
import { connectRedis, type RedisConnections } from './redis.js';
import {
  createSharedApiLimiter,
  createSharedAttempts,
  createSharedLoginAttempts,
  createSharedPushLimiter,
  createSharedSystemMailLimiter,
  uncountedShare,
} from './shared-limits.js';

const logger = createLogger('silent');

describe.skipIf(!redisAvailable)('limits shared through Redis', () => {
  const connections: RedisConnections[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    for (const redis of connections.splice(0)) await redis.close();
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  async function connect(url = REDIS_URL): Promise<RedisConnections> {
    const redis = connectRedis(url, { instanceId: 'test', logger });
    connections.push(redis);
    await vi.waitFor(() => expect(redis.commands.status).toBe('ready'), { timeout: 5000, interval: 10 });
    return redis;
  }
  const prefix = () => `test-${randomBytes(6).toString('hex')}`;

  it('counts an API key’s requests across processes: the one past the limit is refused on either', async () => {
    const shared = { prefix: prefix(), logger, requests: 5, windowMs: 60_000 };
    const a = createSharedApiLimiter({ ...shared, redis: (await connect()).commands });
    const b = createSharedApiLimiter({ ...shared, redis: (await connect()).commands });
    const answers = [];
    for (const limiter of [a, b, a, b, a]) answers.push(await limiter.take('key_1', 0));
    expect(answers.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(answers.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    const refused = await b.take('key_1', 0);
    expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
    expect(refused.resetSec).toBeGreaterThanOrEqual(59);
    expect(refused.resetSec).toBeLessThanOrEqual(60);
    expect((await a.take('key_1', 0)).allowed).toBe(false);
    // Another key has its own budget.
    expect((await a.take('key_2', 0)).allowed).toBe(true);
  });

  it('counts per process while Redis is away, and shares again when it is back', async () => {
    const proxy = await TcpProxy.toRedis(REDIS_URL);
    proxies.push(proxy);
    const shared = { prefix: prefix(), logger, requests: 3, windowMs: 60_000 };
    const redis = (await connect(proxy.url)).commands;
    const a = createSharedApiLimiter({ ...shared, redis });
    expect((await a.take('key_1', 0)).remaining).toBe(2);
    await proxy.close();
    await vi.waitFor(() => expect(redis.status).not.toBe('ready'), { timeout: 2000, interval: 5 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await a.take('key_1', 0)).allowed);
    expect(answers).toEqual([true, true, true, false]);
    const push = createSharedPushLimiter(createPushRateLimiter({ perSecond: 1, burst: 2 }), {
      prefix: shared.prefix,
      logger,
      redis,
    });
    // Answered at once by the process's bucket, without a promise.
    expect(push.take('hash', 0)).toEqual({ allowed: true });
    expect(push.take('hash', 0)).toEqual({ allowed: true });
    expect(push.take('hash', 0)).toMatchObject({ allowed: false });
    await proxy.open();
    await vi.waitFor(() => expect(redis.status).toBe('ready'), { timeout: 5000, interval: 10 });
    // Back to the shared count, where the first request was counted (the insurance's three are not).
    expect(await a.take('key_1', 0)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('counts a push token’s pings across processes, after each process’s own bucket', async () => {
    const shared = { prefix: prefix(), logger };
    const redis = (await connect()).commands;
    // 2 a second, bursts of 4: 4 pings per 2-second window across the cluster, 1 of them uncounted per process.
    expect(uncountedShare(4)).toBe(1);
    const a = createSharedPushLimiter(createPushRateLimiter({ perSecond: 2, burst: 4 }), { ...shared, redis });
    const b = createSharedPushLimiter(createPushRateLimiter({ perSecond: 2, burst: 4 }), {
      ...shared,
      redis: (await connect()).commands,
    });
    const now = Date.now();
    // Each process's share of the window is answered at once, with no round trip to Redis.
    expect(a.take('token-hash', now)).toEqual({ allowed: true });
    expect(b.take('token-hash', now)).toEqual({ allowed: true });
    expect(await redis.exists(`${shared.prefix}:limit:push:token-hash`)).toBe(0);
    const take = async (limiter: typeof a) => (await limiter.take('token-hash', now)) as PushRateDecision;
    // Past its share, a process counts the share with the ping: 2, then 4 of the cluster's 4.
    expect(await take(a)).toEqual({ allowed: true });
    expect(await redis.get(`${shared.prefix}:limit:push:token-hash`)).toBe('2');
    expect(await take(b)).toEqual({ allowed: true });
    // a's own bucket has two left, but the token used the cluster's four.
    const refused = await take(a);
    expect(refused).toMatchObject({ allowed: false });
    expect((refused as { retryAfterSec: number }).retryAfterSec).toBeGreaterThanOrEqual(1);
    expect((await take(b)).allowed).toBe(false);
  });

  it('asks Redis nothing for a token pinged within its share of each window, as heartbeats are', async () => {
    const shared = { prefix: prefix(), logger };
    const redis = (await connect()).commands;
    // 10 a second, bursts of 20: 20 a window of 2 s, 2 of them uncounted per process.
    const a = createSharedPushLimiter(createPushRateLimiter({ perSecond: 10, burst: 20 }), { ...shared, redis });
    const start = Date.now();
    for (const at of [0, 1_000, 2_000, 3_900, 4_500, 60_000, 60_500])
      expect(a.take('heartbeat', start + at)).toEqual({ allowed: true });
    expect(await redis.exists(`${shared.prefix}:limit:push:heartbeat`)).toBe(0);
    // The third of a window: counted in Redis with the two before it.
    expect(await a.take('heartbeat', start + 61_000)).toEqual({ allowed: true });
    expect(await redis.get(`${shared.prefix}:limit:push:heartbeat`)).toBe('3');
    // And each one after it in that window.
    expect(await a.take('heartbeat', start + 61_100)).toEqual({ allowed: true });
    expect(await redis.get(`${shared.prefix}:limit:push:heartbeat`)).toBe('4');
  });

  it('counts wrong page passwords across processes', async () => {
    const shared = { prefix: prefix(), logger, perMinute: 3 };
    const a = createSharedLoginAttempts({ ...shared, redis: (await connect()).commands });
    const b = createSharedLoginAttempts({ ...shared, redis: (await connect()).commands });
    const key = '203.0.113.9\u0000pg_1';
    expect(await a.refusedFor(key)).toBeNull();
    await a.wrong(key);
    await b.wrong(key);
    expect(await b.refusedFor(key)).toBeNull();
    await a.wrong(key);
    const wait = await b.refusedFor(key);
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(await a.refusedFor(key)).toBe(wait);
    expect(await a.refusedFor('198.51.100.1\u0000pg_1')).toBeNull();
  });
  it('counts mail through the system SMTP server per channel and organization across processes, giving back a refused charge', async () => {
    const limits = { ...SYSTEM_MAIL_LIMITS, perChannel: 3, perOrganization: 4, testsPerChannel: 1 };
    const shared = { prefix: prefix(), logger, limits };
    const a = createSharedSystemMailLimiter(createSystemMailLimiter(limits), {
      ...shared,
      redis: (await connect()).commands,
    });
    const b = createSharedSystemMailLimiter(createSystemMailLimiter(limits), {
      ...shared,
      redis: (await connect()).commands,
    });
    const charge = (channelId: string, test = false) => ({ channelId, organizationId: 'org_a', test });
    expect(await a.take(charge('nch_a', true), 0)).toEqual({ allowed: true });
    // The second test, on the other process: refused, and the channel's and organization's counts are given back.
    expect(await b.take(charge('nch_a', true), 0)).toMatchObject({
      allowed: false,
      limit: expect.stringContaining('1 tests an hour'),
    });
    expect(await b.take(charge('nch_a'), 0)).toEqual({ allowed: true });
    expect(await a.take(charge('nch_a'), 0)).toEqual({ allowed: true });
    const refused = await b.take(charge('nch_a'), 0);
    expect(refused).toMatchObject({
      allowed: false,
      limit: expect.stringContaining('a channel may send 3 messages an hour'),
    });
    expect(refused.allowed === false && refused.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(await a.take(charge('nch_b'), 0)).toEqual({ allowed: true });
    expect(await b.take(charge('nch_c'), 0)).toMatchObject({
      allowed: false,
      limit: expect.stringContaining("an organization's channels may send 4 messages"),
    });
  });

  it('counts sign-ups per client across processes, in an hour’s window of their own', async () => {
    const shared = { prefix: prefix(), logger, kind: 'signup', points: 2, windowSec: 3600 };
    const a = createSharedAttempts({ ...shared, redis: (await connect()).commands });
    const b = createSharedAttempts({ ...shared, redis: (await connect()).commands });
    const login = createSharedLoginAttempts({
      prefix: shared.prefix,
      logger,
      perMinute: 2,
      redis: (await connect()).commands,
    });
    const key = 'signup\u0000client\u0000203.0.113.7';
    await a.wrong(key);
    expect(await b.refusedFor(key)).toBeNull();
    await b.wrong(key);
    expect(await a.refusedFor(key)).toBeGreaterThan(3500);
    // Another kind's count under the same key is another counter.
    expect(await login.refusedFor(key)).toBeNull();
  });
});
