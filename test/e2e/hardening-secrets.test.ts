// A write key cannot steal a redacted secret by pointing its monitor somewhere else: a real server, real probes, a fake site that records headers.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { type FakeServer, startHttpFake } from '../fakes/http-fakes.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab }]
`;
const SECRET = 'Bearer s3cret-only-for-the-first-site';
const REDACTED = '[redacted]';
/** How long a probe may take to reach a fake once its monitor is enabled: its first run falls within its 10-second interval. */
const REACHED = { timeout: 20_000, interval: 25 };

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`retargeting a monitor with redacted secrets (${dialect.name})`, () => {
    let opened: OpenedStore;
    let warden: Warden;
    let writeKey: string;
    let first: FakeServer;
    let second: FakeServer;

    beforeAll(async () => {
      opened = await dialect.open();
      const { report } = await seed(opened.store, CONFIG);
      writeKey = (
        await createApiKey(
          { ...testContext(opened.store), organizationId: report.organization.id },
          { name: 'w', scope: 'write' },
        )
      ).secret;
      const env = {
        ...opened.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WARDEN_PROBE_PRIVATE_TARGETS: 'allow',
      };
      warden = await startWarden({ settings: readSettings(env), logger: createLogger('silent') });
      const ok = (_req: unknown, res: import('node:http').ServerResponse) => res.end('ok');
      [first, second] = await Promise.all([startHttpFake(ok), startHttpFake(ok)]);
    });

    afterAll(async () => {
      await warden?.close();
      await Promise.all([first?.close(), second?.close()]);
      await opened?.cleanup();
    });

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${warden.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${writeKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
    };
    const create = async (
      key: string,
      type: string,
      config: Record<string, unknown>,
      extra: Record<string, unknown> = {},
    ) => {
      const res = await call('POST', '/api/v1/monitors', {
        key,
        name: key,
        type,
        enabled: false,
        intervalSec: 10,
        config,
        ...extra,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; config: Record<string, unknown> };
    };
    const seenAuthorization = (site: FakeServer, path: string) =>
      site.requests.filter((r) => r.path === path).map((r) => r.headers.authorization);

    it('refuses a new url with the header kept as "[redacted]" (400 naming it), and changes nothing', async () => {
      const monitor = await create('site', 'http', { url: `${first.url}/a`, headers: { Authorization: SECRET } });
      expect(monitor.config.headers).toBe(REDACTED);
      const res = await call('PATCH', `/api/v1/monitors/${monitor.id}`, {
        enabled: true,
        config: { url: `${second.url}/stolen`, headers: REDACTED },
      });
      expect(res.status).toBe(400);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors).toEqual([{ path: 'body.config.headers', message: expect.stringContaining('url') }]);
      // Left out of the patch, the header would be kept just the same: refused too.
      const omitted = await call('PATCH', `/api/v1/monitors/${monitor.id}`, {
        config: { url: `${second.url}/stolen` },
      });
      expect(omitted.body.errors).toEqual([expect.objectContaining({ path: 'body.config.headers' })]);
      const after = await call('GET', `/api/v1/monitors/${monitor.id}`);
      expect(after.body).toMatchObject({ enabled: false, config: { url: `${first.url}/a`, headers: REDACTED } });
      expect((await opened.store.monitors.findById(monitor.id))?.config.headers).toEqual({ Authorization: SECRET });
    });

    it('takes a new url with the header sent again, keeps a "[redacted]" one where the url stays, and the probes send each', {
      timeout: scaled(30_000),
    }, async () => {
      const moved = await create('moved', 'http', { url: `${first.url}/b`, headers: { Authorization: SECRET } });
      const res = await call('PATCH', `/api/v1/monitors/${moved.id}`, {
        enabled: true,
        config: { url: `${second.url}/moved`, headers: { Authorization: 'Bearer for-the-second-site' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.config).toMatchObject({ url: `${second.url}/moved`, headers: REDACTED });
      const kept = await create('kept', 'http', { url: `${first.url}/kept`, headers: { Authorization: SECRET } });
      const same = await call('PATCH', `/api/v1/monitors/${kept.id}`, {
        enabled: true,
        name: 'Kept',
        config: { ...kept.config, keyword: 'ok' },
      });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      // Both first runs fall somewhere in their 10-second interval.
      await vi.waitFor(() => {
        expect(seenAuthorization(second, '/moved')).toContain('Bearer for-the-second-site');
        expect(seenAuthorization(first, '/kept')).toContain(SECRET);
      }, REACHED);
      expect(seenAuthorization(second, '/moved')).not.toContain(SECRET);
      expect(seenAuthorization(second, '/stolen'), 'the refused target was never probed').toEqual([]);
    });

    it.each([
      ['rcon', { host: '127.0.0.1', port: 27015, password: 'rcon-pass' }, { host: '127.0.0.2' }, ['password']],
      ['rust-webrcon', { host: '127.0.0.1', password: 'rust-pass' }, { port: 28017 }, ['password']],
      [
        'pterodactyl',
        { panelUrl: 'https://panel.example.test', serverId: 'abcd1234', apiKey: 'ptlc_key' },
        { panelUrl: 'https://evil.example.test' },
        ['apiKey'],
      ],
      [
        'discord',
        { mode: 'bot', guildId: '111111111111111111', botToken: 'bot-token' },
        { apiBaseUrl: 'https://evil.example.test/api' },
        ['botToken'],
      ],
    ] as const)(
      'refuses to move a %s monitor with its secret redacted, and takes it sent again',
      async (type, config, move, secrets) => {
        const monitor = await create(`${type}-moved`, type, config);
        const redacted = Object.fromEntries(secrets.map((s) => [s, REDACTED]));
        const refused = await call('PATCH', `/api/v1/monitors/${monitor.id}`, { config: { ...move, ...redacted } });
        expect(refused.status).toBe(400);
        expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(
          secrets.map((s) => `body.config.${s}`),
        );
        expect((await call('GET', `/api/v1/monitors/${monitor.id}`)).body.config).toEqual(monitor.config);
        const sentAgain = Object.fromEntries(secrets.map((s) => [s, `${config[s as keyof typeof config]}-again`]));
        expect(
          (await call('PATCH', `/api/v1/monitors/${monitor.id}`, { config: { ...move, ...sentAgain } })).status,
        ).toBe(200);
        // Where it stays, a redacted secret is kept.
        expect(
          (await call('PATCH', `/api/v1/monitors/${monitor.id}`, { name: 'Renamed', config: redacted })).status,
        ).toBe(200);
        const stored = (await opened.store.monitors.findById(monitor.id))?.config ?? {};
        for (const s of secrets) expect(stored[s]).toBe(sentAgain[s]);
      },
    );

    it('refuses to move a monitor with secrets onto a relay (which receives them) unless they are sent again', async () => {
      const monitor = await create('panel', 'pterodactyl', {
        panelUrl: 'https://panel.example.test',
        serverId: 'abcd1234',
        apiKey: 'ptlc_key',
      });
      const refused = await call('PATCH', `/api/v1/monitors/${monitor.id}`, { runOn: 'relay', relay: 'lab' });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ path: 'body.config.apiKey', message: expect.stringContaining('relay') }]);
      expect((await call('GET', `/api/v1/monitors/${monitor.id}`)).body).toMatchObject({
        runOn: 'edge',
        relayKey: null,
      });
      const moved = await call('PATCH', `/api/v1/monitors/${monitor.id}`, {
        runOn: 'relay',
        relay: 'lab',
        config: { apiKey: 'ptlc_key' },
      });
      expect(moved.body).toMatchObject({ runOn: 'relay', relayKey: 'lab' });
      // Back to the server itself takes the secret nowhere new.
      expect((await call('PATCH', `/api/v1/monitors/${monitor.id}`, { runOn: 'edge' })).status).toBe(200);
    });
  });
