// Events and limits across processes: two Warden instances (startWarden, in this test process) on one PostgreSQL
// schema and one Redis, reached through a TCP proxy the test cuts to take Redis away and restores.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import type { LiveMessage } from '../../src/services/live/messages.js';
import { clusterAvailable, REDIS_PREFIX_SETTING, REDIS_URL, TcpProxy } from '../cluster-harness.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

/** The bound for a change to cross processes over Redis. */
const FAN_OUT_MS = 1_000;
/** Redis away: the documented bound (docs/cluster.md), a poll every second then the rebuild, with a margin for a loaded machine. */
const POLLED_MS = 2_500;

const BEAT = 'wdp_clusterEventsBeat0123456789ab';
const LIMITED = 'wdp_clusterEventsLimited012345678';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: beat, name: Beat, type: heartbeat, pushToken: ${BEAT}, config: { graceSec: 600 } }
  - { key: limited, name: Limited, type: heartbeat, pushToken: ${LIMITED}, config: { graceSec: 600 } }
pages:
  - { slug: live, title: Live, components: [{ name: Beat, monitor: beat }] }
`;

const postgres = dialects.find((d) => d.name === 'postgres');

interface Instance {
  warden: Warden;
  url: string;
  logs: { msg: string; level: number }[];
}

describe.skipIf(!clusterAvailable)('two instances sharing events and limits through Redis', () => {
  let opened: OpenedStore;
  let proxy: TcpProxy;
  let key = '';
  /** Another key, whose budget the rate-limit test uses up. */
  let spentKey = '';
  let a: Instance;
  let b: Instance;

  async function start(id: string): Promise<Instance> {
    const logs: Instance['logs'] = [];
    const logger = createLogger('info', {
      write: (line: string) => void logs.push(JSON.parse(line) as Instance['logs'][number]),
    });
    const env = {
      ...opened.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: proxy.url,
      [REDIS_PREFIX_SETTING]: `test-${prefix}`,
      WARDEN_INSTANCE_ID: id,
      WARDEN_API_RATE_LIMIT: '8',
      // 6 pings per 3-second window across the cluster.
      WARDEN_PUSH_RATE: '2',
      WARDEN_PUSH_BURST: '6',
    };
    const warden = await startWarden({ settings: readSettings(env), logger });
    return { warden, url: warden.url.replace('localhost', '127.0.0.1'), logs };
  }
  const prefix = randomBytes(6).toString('hex');

  beforeAll(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    const { report } = await seed(opened.store, CONFIG, Date.now());
    const context = { ...testContext(opened.store), organizationId: report.organization.id };
    key = (await createApiKey(context, { name: 'writer', scope: 'write' })).secret;
    spentKey = (await createApiKey(context, { name: 'spent', scope: 'read' })).secret;
    proxy = await TcpProxy.toRedis(REDIS_URL);
    [a, b] = await Promise.all([start('a'), start('b')]);
  }, scaled(30_000));

  afterAll(async () => {
    await Promise.all([a?.warden.close(), b?.warden.close()]);
    await proxy?.close();
    await opened?.cleanup();
  });

  const push = (on: Instance, token: string, message = '') =>
    fetch(`${on.url}/api/push/${token}?status=up&msg=${encodeURIComponent(message)}`).then((r) => r.status);
  const api = (on: Instance, method: string, path: string, body?: unknown, as = key) =>
    fetch(`${on.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const status = async (on: Instance, path: string) => (await fetch(`${on.url}${path}`)).status;
  /** Resolves with how long after `since` `probe` first answered `expected` (polled every 10 ms), or throws past `withinMs`. */
  async function took(
    since: number,
    probe: () => Promise<unknown>,
    expected: unknown,
    withinMs: number,
  ): Promise<number> {
    while (performance.now() - since < withinMs + 2_000) {
      if ((await probe()) === expected) return performance.now() - since;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`not ${String(expected)} within ${withinMs + 2_000} ms`);
  }
  /** A stream of /s/live on `on`; `seen(message)` resolves when a monitor update carrying it arrives, with when. */
  async function listen(on: Instance) {
    const ws = new WebSocket(`${on.url.replace('http', 'ws')}/s/live/live`);
    const updates: { message: string | undefined; at: number }[] = [];
    ws.on('message', (data) => {
      const parsed = JSON.parse(String(data)) as LiveMessage;
      if (parsed.type === 'monitor.update')
        updates.push({ message: parsed.component.live?.message ?? undefined, at: performance.now() });
    });
    await new Promise((resolve, reject) => {
      ws.once('message', resolve);
      ws.once('error', reject);
    });
    return {
      ws,
      async seen(message: string, since: number, withinMs: number): Promise<number> {
        return took(since, async () => updates.some((u) => u.message === message), true, withinMs);
      },
    };
  }

  it('a WebSocket client on b sees a push made on a within 1 s', async () => {
    const client = await listen(b);
    try {
      for (const tag of ['first', 'second']) {
        const sent = performance.now();
        expect(await push(a, BEAT, tag)).toBe(200);
        const ms = await client.seen(tag, sent, FAN_OUT_MS);
        console.info(`cluster events: a push on a reached b's live stream in ${Math.round(ms)} ms`);
        expect(ms).toBeLessThan(FAN_OUT_MS);
      }
    } finally {
      client.ws.close();
    }
  });

  it('a password set through a’s API is enforced by b within 1 s', async () => {
    // A new page in each attempt: a retry on the same processes would find the first attempt's page there already.
    const slug = `vault-${randomBytes(3).toString('hex')}`;
    expect((await api(a, 'POST', '/pages', { slug, title: 'Vault' })).status).toBe(201);
    await took(performance.now(), () => status(b, `/s/${slug}`), 200, FAN_OUT_MS);
    expect((await api(a, 'PATCH', `/pages/${slug}`, { password: 'correct-horse-battery' })).status).toBe(200);
    const enforced = await took(performance.now(), () => status(b, `/s/${slug}`), 401, FAN_OUT_MS);
    console.info(`cluster events: a password set through a was enforced by b after ${Math.round(enforced)} ms`);
    expect(enforced).toBeLessThan(FAN_OUT_MS);
    const withPassword = await fetch(`${b.url}/s/${slug}/status.json`, {
      headers: { authorization: 'Bearer correct-horse-battery' },
    });
    expect(withPassword.status).toBe(200);
  });

  it('counts the API and push rate limits across both: the request past the limit is refused on either', async () => {
    // The API: 8 a minute per key, used alternately on a and b; the 9th is refused on both.
    const answers: number[] = [];
    for (let i = 0; i < 9; i++)
      answers.push((await api(i % 2 ? b : a, 'GET', '/monitors', undefined, spentKey)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = await api(a, 'GET', '/monitors', undefined, spentKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    // Pushes: 6 per 3-second window for a token across the cluster, while each process alone would take 6. Each
    // process's first ping of the window is answered without asking Redis (a heartbeat's pace); its second is counted
    // with it, so the cluster's count is whole: 6 before the refusal.
    const pushes: number[] = [];
    for (let i = 0; i < 9; i++) pushes.push(await push(i % 2 ? b : a, LIMITED));
    expect(pushes).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it('without Redis: live updates by polling, access changes still enforced, logged once; then fan-out resumes', {
    timeout: scaled(30_000),
  }, async () => {
    const client = await listen(b);
    try {
      await proxy.close();
      await took(performance.now(), async () => b.logs.some((l) => l.msg.startsWith('redis unreachable')), true, 2_000);
      // A push on a reaches b's stream from PostgreSQL.
      let sent = performance.now();
      expect(await push(a, BEAT, 'during the outage')).toBe(200);
      const polled = await client.seen('during the outage', sent, POLLED_MS);
      expect(polled).toBeLessThan(POLLED_MS);
      // A page made private on a answers 401 on b (the change counter, polled every second).
      expect((await api(a, 'POST', '/pages', { slug: 'private', title: 'Private' })).status).toBe(201);
      await took(performance.now(), () => status(b, '/s/private'), 200, POLLED_MS);
      expect((await api(a, 'PATCH', '/pages/private', { password: 'correct-horse-battery' })).status).toBe(200);
      const enforced = await took(performance.now(), () => status(b, '/s/private'), 401, POLLED_MS);
      expect(enforced).toBeLessThan(POLLED_MS);
      for (const instance of [a, b])
        expect(instance.logs.filter((l) => l.msg.startsWith('redis unreachable'))).toHaveLength(1);

      await proxy.open();
      await took(
        performance.now(),
        async () => b.logs.some((l) => l.msg.startsWith('redis reachable again')),
        true,
        5_000,
      );
      await took(
        performance.now(),
        async () => a.logs.some((l) => l.msg.startsWith('redis reachable again')),
        true,
        5_000,
      );
      sent = performance.now();
      expect(await push(a, BEAT, 'after the outage')).toBe(200);
      expect(await client.seen('after the outage', sent, FAN_OUT_MS)).toBeLessThan(FAN_OUT_MS);
      for (const instance of [a, b])
        expect(instance.logs.filter((l) => l.msg.startsWith('redis reachable again'))).toHaveLength(1);
      console.info(
        `cluster events: without Redis a push reached the other instance's stream in ${Math.round(polled)} ms, a password in ${Math.round(enforced)} ms`,
      );
    } finally {
      client.ws.close();
    }
  });
});
