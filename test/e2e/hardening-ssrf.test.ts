// SSRF through a real server: with two organizations on one database, an organization without its own setting cannot
// probe loopback or metadata addresses; one that allows it in warden.yaml can; a single organization still watches its
// LAN; and configured headers never follow a redirect to another origin.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import type { StoredCheck } from '../../src/domain/check.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import type { Store } from '../../src/store/index.js';
import { type FakeServer, startWebsiteFake } from '../fakes/http-fakes.js';
import { seed } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

/** A monitor's first run falls within its 10-second interval. */
const FIRST_RUN = { timeout: 25_000, interval: 50 };
const REFUSED = "this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS";

const monitor = (key: string, type: string, config: Record<string, unknown>) =>
  `  - { key: ${key}, name: ${key}, type: ${type}, intervalSec: 10, timeoutMs: 5000, retries: 0, config: ${JSON.stringify(config)} }`;
const page = (slug: string, keys: string[]) =>
  `pages:\n  - slug: ${slug}\n    title: ${slug}\n    components:\n${keys.map((key) => `      - { name: ${key}, monitor: ${key} }`).join('\n')}`;

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

async function serve(opened: OpenedStore, env: Record<string, string> = {}): Promise<Warden> {
  const settings = readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
  return startWarden({ settings, logger: createLogger('silent') });
}

/** The first check of each monitor of an organization, waiting for its first run. */
async function firstChecks(store: Store, organizationKey: string): Promise<Record<string, StoredCheck>> {
  const organization = await store.organizations.findByKey(organizationKey);
  const monitors = await store.monitors.list(organization?.id ?? '');
  const checks: Record<string, StoredCheck> = {};
  await expect
    .poll(async () => {
      for (const m of monitors) {
        const [check] = await store.checks.list(m.id, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1 });
        if (check) checks[m.key] = check;
      }
      return Object.keys(checks).length;
    }, FIRST_RUN)
    .toBe(monitors.length);
  return checks;
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the probe-target policy through a real server (${dialect.name})`, () => {
    let site: FakeServer;
    let other: FakeServer;
    let scanned: Awaited<ReturnType<typeof countingPort>>;
    let shared: OpenedStore;
    let single: OpenedStore;
    let sharedServer: Warden;
    let singleServer: Warden;

    beforeAll(async () => {
      [site, other, scanned, shared, single] = await Promise.all([
        startWebsiteFake(),
        startWebsiteFake(),
        countingPort(),
        dialect.open(),
        dialect.open(),
      ]);
      // Two organizations on one database, under the default (auto): beta allows private targets in its file, alpha says nothing.
      await seed(
        shared.store,
        `organization: { key: beta, name: Beta, probePrivateTargets: allow }\nmonitors:\n${monitor('lan', 'http', { url: `${site.url}/json?from=beta`, jsonPath: 'status' })}`,
      );
      const alpha = [
        monitor('metadata', 'http', {
          url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
          jsonPath: 'Code',
        }),
        monitor('loopback', 'http', { url: `${site.url}/json?from=alpha`, jsonPath: 'status' }),
        monitor('byname', 'http', { url: `http://localhost:${site.port}/json?from=alpha-by-name`, jsonPath: 'status' }),
        monitor('scan', 'tcp', { host: '127.0.0.1', port: scanned.port }),
      ];
      await seed(
        shared.store,
        `organization: { key: alpha, name: Alpha }\nmonitors:\n${alpha.join('\n')}\n${page('alpha', ['metadata', 'loopback', 'byname', 'scan'])}`,
      );
      // One organization alone, also under the default.
      const home = [
        monitor('lan', 'http', { url: `${site.url}/json?from=home`, jsonPath: 'status' }),
        monitor('port', 'tcp', { host: '127.0.0.1', port: site.port }),
        monitor('forward', 'http', {
          url: `${site.url}/moved-to/${other.port}`,
          maxRedirects: 1,
          headers: { 'X-API-Key': 'key-s3cret', Authorization: 'Bearer token-s3cret', 'X-Plain': 'plain' },
        }),
      ];
      await seed(single.store, `organization: { key: home, name: Home }\nmonitors:\n${home.join('\n')}`);
      [sharedServer, singleServer] = await Promise.all([serve(shared), serve(single)]);
    }, scaled(30_000));

    afterAll(async () => {
      await Promise.all([sharedServer?.close(), singleServer?.close()]);
      await Promise.all([site?.close(), other?.close(), scanned?.close()]);
      await Promise.all([shared?.cleanup(), single?.cleanup()]);
    });

    it('marks the monitors of the organization without its own setting down, with the refusal and no data, having reached nothing', async () => {
      const checks = await firstChecks(shared.store, 'alpha');
      expect(checks.metadata).toMatchObject({
        ok: false,
        data: null,
        error: `refused: 169.254.169.254 is a cloud metadata address; ${REFUSED}, organization.probePrivateTargets)`,
      });
      expect(checks.loopback).toMatchObject({
        ok: false,
        data: null,
        error: `refused: 127.0.0.1 is a loopback address; ${REFUSED}, organization.probePrivateTargets)`,
      });
      expect(checks.byname).toMatchObject({
        ok: false,
        data: null,
        error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
      });
      expect(checks.scan).toMatchObject({
        ok: false,
        data: null,
        error: expect.stringContaining('127.0.0.1 is a loopback address'),
      });
      // The loopback site and port never saw alpha's probes.
      expect(site.requests.filter((request) => request.path.includes('from=alpha'))).toEqual([]);
      expect(scanned.connections()).toBe(0);
      // What a visitor of alpha's page sees: every component down.
      const snapshot = (await (await fetch(`${sharedServer.url}/api/v1/status/alpha`)).json()) as {
        components: { monitorState: string }[];
      };
      expect(snapshot.components.map((component) => component.monitorState)).toEqual(['down', 'down', 'down', 'down']);
    });

    it('lets the organization whose warden.yaml allows private targets reach the same loopback site', async () => {
      const checks = await firstChecks(shared.store, 'beta');
      expect(checks.lan).toMatchObject({ ok: true, data: { statusCode: 200, jsonValue: 'healthy' } });
      expect(site.requests.some((request) => request.path === '/json?from=beta')).toBe(true);
    });

    it('lets a single organization watch its LAN by default', async () => {
      const checks = await firstChecks(single.store, 'home');
      expect(checks.lan).toMatchObject({ ok: true, data: { jsonValue: 'healthy' } });
      expect(checks.port).toMatchObject({ ok: true });
    });

    it('sends no configured header to the other origin a redirect leads to', async () => {
      const checks = await firstChecks(single.store, 'home');
      expect(checks.forward).toMatchObject({ ok: true, data: { redirects: 1 } });
      const first = site.requests.find((request) => request.path === `/moved-to/${other.port}`);
      expect(first?.headers).toMatchObject({
        'x-api-key': 'key-s3cret',
        authorization: 'Bearer token-s3cret',
        'x-plain': 'plain',
      });
      const followed = other.requests.filter((request) => request.path === '/echo');
      expect(followed.length).toBeGreaterThan(0);
      for (const request of followed) {
        expect(Object.keys(request.headers).sort()).toEqual(['connection', 'host', 'user-agent']);
        expect(JSON.stringify(request)).not.toContain('s3cret');
      }
    });
  });
