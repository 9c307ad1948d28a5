// What the custom-domain takeover tests share (hardening-domains-claims.test.ts,
// hardening-domains-verification.test.ts): a real server with two organizations, acme and globex, each with a write
// key, and a fake DNS server holding (or not) the TXT records.
import { request } from 'node:http';
import { afterAll, beforeAll, expect } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { type DnsZone, type FakeDnsServer, startDnsFake } from '../fakes/dns-server.js';
import { seed, testContext } from '../seed.js';
import type { dialects, OpenedStore } from '../store-dialects.js';

export const BASE_HOST = 'warden.example.com';
export const ACME = `
organization: { key: acme, name: Acme }
pages:
  - { slug: acme, title: Acme Network, customDomain: status.acme.test }
`;
export const GLOBEX = 'organization: { key: globex, name: Globex }';
/** The daily re-check, made fast: a verified domain whose last lookup is this old is looked up again. */
export const RECHECK_MS = 300;
export const SOON = { timeout: 5_000, interval: 25 };

export interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/** A request with the Host header given (fetch would not send another host than the URL's). */
export function hostRequest(
  base: string,
  path: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Called inside a dialect's describe: the server, its DNS and the calls the tests make, closed after the file. */
export function domainsServer(dialect: (typeof dialects)[number]) {
  let opened: OpenedStore;
  let warden: Warden;
  let dns: FakeDnsServer;
  const zone: DnsZone = {};
  const keys = { acme: '', globex: '' };
  const logs: string[] = [];

  beforeAll(async () => {
    opened = await dialect.open();
    const acme = await seed(opened.store, ACME);
    const globex = await seed(opened.store, GLOBEX);
    const ctx = testContext(opened.store);
    keys.acme = (
      await createApiKey({ ...ctx, organizationId: acme.report.organization.id }, { name: 'w', scope: 'write' })
    ).secret;
    keys.globex = (
      await createApiKey({ ...ctx, organizationId: globex.report.organization.id }, { name: 'w', scope: 'write' })
    ).secret;
    dns = await startDnsFake(zone);
    const env = {
      ...opened.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WARDEN_BASE_URL: `https://${BASE_HOST}`,
    };
    warden = await startWarden({
      settings: readSettings(env),
      logger: createLogger('warn', { write: (line: string) => void logs.push(line) }),
      domains: { dnsServers: [dns.address], recheckEveryMs: RECHECK_MS },
    });
  });

  afterAll(async () => {
    await warden?.close();
    await dns?.close();
    await opened?.cleanup();
  });

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${warden.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  };
  const onHost = (host: string, path: string) => hostRequest(warden.url, path, host);
  const mcpPages = async (host: string): Promise<string[]> => {
    const res = await hostRequest(warden.url, '/mcp', host, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_status_pages', arguments: {} },
      }),
    });
    const json = res.body.trim().startsWith('{') ? res.body : (/^data: (.*)$/m.exec(res.body)?.[1] ?? '{}');
    const result = (JSON.parse(json) as { result?: { structuredContent?: { pages?: { slug: string }[] } } }).result;
    expect(result?.structuredContent?.pages, res.body).toBeDefined();
    return (result?.structuredContent?.pages ?? []).map((p) => p.slug).sort();
  };

  return {
    get opened() {
      return opened;
    },
    get dns() {
      return dns;
    },
    zone,
    keys,
    logs,
    api,
    onHost,
    mcpPages,
  };
}
