// A real Warden for the fuzzer (startWarden on port 0): two organizations seeded through config sync, keys of each scope, and what a request can name.
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { seed, testContext } from '../seed.js';
import type { DialectCase, OpenedStore } from '../store-dialects.js';
import type { OpenApiDocument } from './schema-arbitrary.js';

export const PAGE_PASSWORD = { alpha: 'alpha-vault-pass', beta: 'beta-bunker-pass' } as const;
const RELAY_TOKEN = { alpha: 'wdr_fuzzAlphaRelayToken0123456789', beta: 'wdr_fuzzBetaRelayToken01234567890' } as const;
const PUSH_TOKEN = { alpha: 'wdp_fuzzAlphaPushToken0123456789', beta: 'wdp_fuzzBetaPushToken01234567890' } as const;

/** One organization's file: a relay, a heartbeat, monitors that never reach the network (disabled), a public page, a protected one on a custom domain. */
function organizationYaml(key: 'alpha' | 'beta'): string {
  return `
organization: { key: ${key}, name: ${key} }
relays:
  - { key: lab, name: Lab, token: ${RELAY_TOKEN[key]} }
monitors:
  - { key: beat, name: Beat, type: heartbeat, pushToken: ${PUSH_TOKEN[key]} }
  - { key: panel, name: Panel, type: pterodactyl, enabled: false, config: { panelUrl: "http://127.0.0.1:1", serverId: abcd1234, apiKey: ptlc_fuzz } }
  - { key: site, name: Site, type: http, enabled: false, config: { url: "http://127.0.0.1:1/", headers: { Authorization: "Bearer x" } } }
  - { key: far, name: Far, type: tcp, runOn: relay, relay: lab, config: { host: 127.0.0.1, port: 1 } }
pages:
  - slug: ${key}
    title: ${key} status
    components:
      - { key: beat, name: Beat, monitor: beat }
      - { key: far, name: Far, monitor: far, group: Relay }
    incidents:
      - { key: outage, title: Outage, startedAt: 2026-03-01T00:00:00Z, updates: [{ at: 2026-03-01T00:00:00Z, status: investigating, message: Looking }] }
    maintenance:
      - { key: upgrade, title: Upgrade, startsAt: 2030-04-01T00:00:00Z, endsAt: 2030-04-01T02:00:00Z }
  - slug: ${key}-vault
    title: ${key} vault
    password: ${PAGE_PASSWORD[key]}
    customDomain: status.${key}.test
    aiPolicy: disallow
    components:
      - { key: panel, name: Panel, monitor: panel }
`;
}

/** Who a request may claim to be. */
export interface Credentials {
  readA: string;
  writeA: string;
  readB: string;
  writeB: string;
  relayA: string;
  relayB: string;
  pushA: string;
  pushB: string;
  pagePasswordA: string;
  pagePasswordB: string;
}

export interface FuzzServer {
  url: string;
  host: string;
  port: number;
  doc: OpenApiDocument;
  credentials: Credentials;
  /** Ids, slugs and keys of both organizations, for path parameters and bodies. */
  names: string[];
  /** What the server logged at level error or above (an unhandled error is logged, even when no one saw its 500). */
  loggedErrors: string[];
  close(): Promise<void>;
}

/** Starts the server on a fresh database of `dialect`; the limits that would turn most requests into 429s are raised. */
export async function startFuzzServer(dialect: DialectCase): Promise<FuzzServer> {
  const opened: OpenedStore = await dialect.open();
  let warden: Warden | undefined;
  try {
    const keys: Partial<Credentials> = {};
    for (const [org, suffix] of [
      ['alpha', 'A'],
      ['beta', 'B'],
    ] as const) {
      const { report } = await seed(opened.store, organizationYaml(org));
      const ctx = { ...testContext(opened.store, { now: () => Date.now() }), organizationId: report.organization.id };
      keys[`read${suffix}`] = (await createApiKey(ctx, { name: 'fuzz read', scope: 'read' })).secret;
      keys[`write${suffix}`] = (await createApiKey(ctx, { name: 'fuzz write', scope: 'write' })).secret;
      keys[`relay${suffix}`] = RELAY_TOKEN[org];
      keys[`push${suffix}`] = PUSH_TOKEN[org];
      keys[`pagePassword${suffix}`] = PAGE_PASSWORD[org];
    }
    const credentials = keys as Credentials;
    const env = {
      ...opened.env,
      PORT: '0',
      HOST: '127.0.0.1',
      WARDEN_API_RATE_LIMIT: '1000000',
      WARDEN_PUSH_RATE: '100000',
      WARDEN_PUSH_BURST: '1000000',
      WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    };
    const loggedErrors: string[] = [];
    const logs = {
      write(line: string) {
        if (process.env.WARDEN_FUZZ_LOG) process.stderr.write(line);
        const entry = JSON.parse(line) as { level: number; msg?: string; err?: { message?: string; stack?: string } };
        if (entry.level >= 50) loggedErrors.push(`${entry.msg ?? ''}: ${entry.err?.stack ?? entry.err?.message ?? ''}`);
      },
    };
    // Custom-domain checks ask a DNS server that is not there: the fuzzer's made-up domains go nowhere.
    const domains = { dnsServers: ['127.0.0.1:9'] };
    warden = await startWarden({
      settings: readSettings(env),
      logger: createLogger(process.env.WARDEN_FUZZ_LOG ?? 'error', logs),
      domains,
    });
    const url = warden.url.replace('localhost', '127.0.0.1');
    const doc = (await (await fetch(`${url}/api/openapi.json`)).json()) as OpenApiDocument;
    const names = await discoverNames(url, [credentials.readA, credentials.readB]);
    const running = warden;
    return {
      url,
      host: new URL(url).host,
      port: running.port,
      doc,
      credentials,
      names,
      loggedErrors,
      async close() {
        await running.close();
        await opened.cleanup();
      },
    };
  } catch (error) {
    await warden?.close();
    await opened.cleanup();
    throw error;
  }
}

/** Every id, key and slug the organizations' read keys can list. */
async function discoverNames(url: string, readKeys: string[]): Promise<string[]> {
  const names = new Set<string>();
  const list = async (key: string, path: string): Promise<Record<string, unknown>[]> => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as Record<string, unknown>;
    const items = Object.values(body).find(Array.isArray) as Record<string, unknown>[] | undefined;
    for (const item of items ?? [])
      for (const field of ['id', 'key', 'slug']) if (typeof item[field] === 'string') names.add(item[field] as string);
    return items ?? [];
  };
  for (const key of readKeys) {
    await list(key, '/api/v1/monitors');
    await list(key, '/api/v1/relays');
    for (const page of await list(key, '/api/v1/pages'))
      for (const child of ['components', 'incidents', 'maintenance'])
        await list(key, `/api/v1/pages/${page.slug}/${child}`);
  }
  return [...names];
}
