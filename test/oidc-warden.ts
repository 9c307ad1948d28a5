// Warden with a real OpenID Connect provider (oidc-provider on 127.0.0.1) for the sign-in tests: Warden on a real port,
// its logs kept, its clock movable, and a browser played by fetch with a cookie jar per origin.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { composeWarden, type WardenParts } from '../src/compose.js';
import type { AccountSettings } from '../src/config/settings.js';
import { createLogger } from '../src/logger.js';
import { type FakeOidcProvider, startOidcProvider } from './fakes/oidc-provider.js';
import { seed } from './seed.js';
import type { DialectCase, OpenedStore } from './store-dialects.js';

const ORG_YAML =
  'organization: { key: alpha, name: Alpha }\nmonitors:\n  - { key: lobby, name: Lobby, type: tcp, config: { host: 127.0.0.1, port: 25565 } }\n';

/** A browser: cookies per origin (with their paths), redirects followed by hand, the provider's forms submitted. */
export class Browser {
  private readonly jar = new Map<string, Map<string, { value: string; path: string }>>();

  async fetch(url: URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const cookies = [...(this.jar.get(url.origin) ?? new Map()).entries()]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([n, c]) => `${n}=${c.value}`);
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies.length ? { cookie: cookies.join('; ') } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const [name = '', value = ''] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const gone = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      const cookies = this.jar.get(url.origin) ?? new Map();
      if (gone || value === '') cookies.delete(name);
      else cookies.set(name, { value, path });
      this.jar.set(url.origin, cookies);
    }
    return response;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name)?.value;
  }
}

export interface Setup {
  parts: WardenParts;
  opened: OpenedStore;
  server: Server;
  url: string;
  provider: FakeOidcProvider;
  accounts: AccountSettings;
  organizationId: string;
  logs: string[];
  clock: { offsetMs: number };
}

export async function startWardenWithProvider(dialect: DialectCase): Promise<Setup> {
  const opened = await dialect.open();
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = await startOidcProvider({ redirectUris: [`${url}/api/v1/auth/oidc/callback`] });
  const accounts: AccountSettings = {
    signup: 'invite',
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      name: 'Test IdP',
    },
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = { offsetMs: 0 };
  const parts = composeWarden({
    store: opened.store,
    clock: { now: () => Date.now() + clock.offsetMs },
    logger: createLogger('debug', sink),
    baseUrl: () => url,
    accounts,
  });
  server.on('request', getRequestListener(parts.app.fetch));
  const { report } = await seed(opened.store, ORG_YAML, Date.now());
  return { parts, opened, server, url, provider, accounts, organizationId: report.organization.id, logs, clock };
}

export async function stop(s: Setup | undefined): Promise<void> {
  if (!s) return;
  s.server.closeAllConnections();
  await new Promise<void>((resolve) => s.server.close(() => resolve()));
  await s.provider.close();
  await s.parts.pages.stop();
  await s.parts.ingest.close();
  await s.opened.cleanup();
}
