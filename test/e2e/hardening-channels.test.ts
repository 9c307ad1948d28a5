// Notification channels through a real server: a tenant denied private addresses cannot aim any channel type at a
// loopback service (the test answer says "refused by policy", keeps no answer, and the service sees no connection), a
// receiver's redirect is not followed, refused connections and timeouts are classified where private addresses are
// allowed, and channel URLs show their scheme and host only to those who cannot edit channels.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { signedInUser } from '../accounts.js';
import { type BlackHole, startTcpBlackHole } from '../fakes/black-holes.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const SECRET = `whsec_${Buffer.alloc(32, 8).toString('base64')}`;
const BASE = '/api/v1/notification-channels';
const REFUSED =
  /^refused by policy: (127\.0\.0\.1|::1) is a loopback address; this organization may reach public addresses only \(WARDEN_PROBE_PRIVATE_TARGETS, organization\.probePrivateTargets\)$/;

/** A TCP port that counts the connections made to it and closes each. */
async function countingPort(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Each channel type aimed at a loopback host and port, as a tenant would create it through the API. */
const aimedAt = (host: string, port: number) => {
  const origin = `http://${host}:${port}`;
  return {
    webhook: { url: `${origin}/admin/keys`, secret: SECRET },
    discord: { url: `${origin}/api/webhooks/1/tok` },
    slack: { url: `${origin}/services/T0/B0/xyz` },
    teams: { url: `${origin}/workflows/abc/triggers/manual/paths/invoke` },
    ntfy: { url: `${origin}/internal-topic` },
    telegram: { botToken: '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', chatId: -1001234567890, apiBaseUrl: origin },
    email: { to: 'ops@acme.test', from: 'warden@acme.test', host, port, secure: 'none' },
    pushover: { token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi', user: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', apiBaseUrl: origin },
    gotify: { url: origin, token: 'AbCdEf1234567.8' },
    matrix: { homeserverUrl: origin, accessToken: 'syt_abc', roomId: '!ops:example.org' },
    mattermost: { url: `${origin}/hooks/xfa1k3y` },
    rocketchat: { url: `${origin}/hooks/6Fz9kQ/xT0k3nS3cr3t` },
    googlechat: { url: `${origin}/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D` },
  };
};

interface Delivery {
  status: string;
  lastError: string | null;
  lastFailure: string | null;
  lastStatus: number | null;
  lastAnswer: string | null;
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`notification channels under the target policy (${dialect.name})`, () => {
    let opened: OpenedStore;
    let warden: Warden;
    /** Keys of the tenant (no setting of its own: denied private addresses once there are two organizations) and of home (allowed). */
    const keys = { tenantWrite: '', tenantRead: '', homeWrite: '' };
    const cookies = { viewer: '', editor: '', admin: '' };
    let scanned: Awaited<ReturnType<typeof countingPort>>;
    let receiver: Receiver;
    let inside: Receiver;
    let hole: BlackHole;
    /** The timeout case takes the attempt's full 10 s: started at once, awaited in its test. */
    let slow: Promise<{ outcome: string; delivery: Delivery }>;

    const call = async (method: string, path: string, auth: { key?: string; cookie?: string }, body?: unknown) => {
      const res = await fetch(`${warden.url}${path}`, {
        method,
        headers: {
          ...(auth.key ? { authorization: `Bearer ${auth.key}` } : {}),
          ...(auth.cookie ? { cookie: auth.cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };
    const create = async (key: string, type: string, config: Record<string, unknown>, writeKey: string) => {
      const res = await call('POST', BASE, { key: writeKey }, { key, name: key, type, config });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const test = async (key: string, writeKey: string) => {
      const res = await call('POST', `${BASE}/${key}/test`, { key: writeKey });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { outcome: string; delivery: Delivery };
    };

    beforeAll(async () => {
      opened = await dialect.open();
      [scanned, receiver, inside, hole] = await Promise.all([
        countingPort(),
        startReceiver({ status: 200, body: 'thanks' }),
        startReceiver(),
        startTcpBlackHole(),
      ]);
      const tenant = (await seed(opened.store, 'organization: { key: tenant, name: Tenant }')).report.organization.id;
      const home = (await seed(opened.store, 'organization: { key: home, name: Home, probePrivateTargets: allow }'))
        .report.organization.id;
      const ctx = { ...testContext(opened.store), clock: { now: () => Date.now() } };
      const key = async (organizationId: string, scope: 'read' | 'write') =>
        (await createApiKey({ ...ctx, organizationId }, { name: scope, scope })).secret;
      [keys.tenantWrite, keys.tenantRead, keys.homeWrite] = await Promise.all([
        key(tenant, 'write'),
        key(tenant, 'read'),
        key(home, 'write'),
      ]);
      for (const role of ['viewer', 'editor', 'admin'] as const)
        cookies[role] = (await signedInUser(ctx, [{ organizationId: tenant, role }])).cookie;
      warden = await startWarden({
        settings: readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
        logger: createLogger('silent'),
      });
      await create('silent', 'webhook', { url: `http://127.0.0.1:${hole.port}/hook`, secret: SECRET }, keys.homeWrite);
      slow = test('silent', keys.homeWrite);
    }, scaled(30_000));

    afterAll(async () => {
      await warden?.close();
      await Promise.all([scanned?.close(), receiver?.close(), inside?.close(), hole?.close()]);
      await opened?.cleanup();
    });

    it('refuses every channel type a tenant aims at a loopback service: "refused by policy", no answer, no connection', async () => {
      const channels = {
        ...aimedAt('127.0.0.1', scanned.port),
        'webhook-by-name': aimedAt('localhost', scanned.port).webhook,
      };
      for (const [key, config] of Object.entries(channels))
        await create(key, key.replace(/-by-name$/, ''), config, keys.tenantWrite);
      for (const key of Object.keys(channels)) {
        const answer = await test(key, keys.tenantWrite);
        expect(answer, key).toMatchObject({
          outcome: 'failed',
          delivery: { status: 'dead', lastFailure: 'refused', lastStatus: null, lastAnswer: null },
        });
        expect(answer.delivery.lastError, key).toMatch(REFUSED);
      }
      expect(scanned.connections()).toBe(0);
      // The delivery log keeps the same: the class, and nothing from the target.
      const { body } = await call('GET', `${BASE}/ntfy/deliveries`, { key: keys.tenantWrite });
      expect(body.deliveries).toEqual([
        expect.objectContaining({ status: 'dead', lastFailure: 'refused', lastStatus: null, lastAnswer: null }),
      ]);
    });

    it("does not follow a receiver's redirect", async () => {
      const redirecting = await startReceiver({
        status: 307,
        headers: { location: `${inside.url}/stolen` },
        body: 'moved',
      });
      try {
        await create('moved', 'webhook', { url: `${redirecting.url}/hook`, secret: SECRET }, keys.homeWrite);
        const answer = await test('moved', keys.homeWrite);
        expect(answer).toMatchObject({
          outcome: 'failed',
          delivery: { status: 'dead', lastFailure: 'status', lastStatus: 307, lastError: 'HTTP 307' },
        });
        expect(redirecting.requests).toHaveLength(1);
        expect(inside.requests).toEqual([]);
      } finally {
        await redirecting.close();
      }
    });

    it("classifies a refused connection and a timeout where private addresses are allowed, and keeps a receiver's answer", {
      timeout: scaled(20_000),
    }, async () => {
      const closed = await countingPort();
      await closed.close();
      await create(
        'closed',
        'webhook',
        { url: `http://127.0.0.1:${closed.port}/hook`, secret: SECRET },
        keys.homeWrite,
      );
      expect(await test('closed', keys.homeWrite)).toMatchObject({
        outcome: 'failed',
        delivery: {
          status: 'dead',
          lastFailure: 'connection-refused',
          lastError: 'connection refused',
          lastStatus: null,
          lastAnswer: null,
        },
      });
      await create('home', 'ntfy', { url: `${receiver.url}/home-alerts` }, keys.homeWrite);
      expect(await test('home', keys.homeWrite)).toMatchObject({
        outcome: 'sent',
        delivery: { status: 'sent', lastFailure: null, lastStatus: 200, lastAnswer: 'thanks' },
      });
      expect(await slow).toMatchObject({
        outcome: 'failed',
        delivery: {
          status: 'dead',
          lastFailure: 'timed-out',
          lastError: 'timed out',
          lastStatus: null,
          lastAnswer: null,
        },
      });
    });

    it('shows viewers, editors and read keys where a channel URL points, not its path; admins and write keys see it whole', async () => {
      await create('topic', 'ntfy', { url: 'https://ntfy.sh/warden-7f3a9c', token: 'tk_s3cret' }, keys.tenantWrite);
      await create(
        'hook',
        'webhook',
        { url: 'https://hooks.example.com/in/4f9c?key=s3cret', secret: SECRET },
        keys.tenantWrite,
      );
      const configs = async (auth: { key?: string; cookie?: string }) => {
        const { status, body } = await call('GET', BASE, auth);
        expect(status).toBe(200);
        const byKey = Object.fromEntries(
          (body.channels as { key: string; config: Record<string, unknown> }[]).map((c) => [c.key, c.config]),
        );
        expect((await call('GET', `${BASE}/topic`, auth)).body.config).toEqual(byKey.topic);
        return { topic: byKey.topic, hook: byKey.hook };
      };
      const redacted = {
        topic: { url: 'https://ntfy.sh/[redacted]', token: '[redacted]' },
        hook: { url: 'https://hooks.example.com/[redacted]', secret: '[redacted]' },
      };
      const whole = {
        topic: { url: 'https://ntfy.sh/warden-7f3a9c', token: '[redacted]' },
        hook: { url: 'https://hooks.example.com/in/4f9c?key=s3cret', secret: '[redacted]' },
      };
      expect(await configs({ key: keys.tenantRead })).toEqual(redacted);
      expect(await configs({ cookie: cookies.viewer })).toEqual(redacted);
      expect(await configs({ cookie: cookies.editor })).toEqual(redacted);
      expect(await configs({ cookie: cookies.admin })).toEqual(whole);
      expect(await configs({ key: keys.tenantWrite })).toEqual(whole);
    });
  });
