// An in-process Warden app for API tests: a fresh store of one dialect, two organizations seeded through the real config sync, and keys of each scope.
import type { WardenEvent } from '../src/bus/events.js';
import type { DomainOptions } from '../src/compose/options.js';
import { composeWarden, type WardenParts } from '../src/compose.js';
import type { AccountSettings } from '../src/config/settings.js';
import type { Monitor } from '../src/domain/monitor.js';
import type { SecurityOptions } from '../src/domain/security.js';
import type { SystemMailLimits } from '../src/domain/system-mail.js';
import type { App } from '../src/http/env.js';
import { createLogger } from '../src/logger.js';
import type { SmtpSettings } from '../src/notify/mail/smtp.js';
import type { Ingest } from '../src/runner/ingest.js';
import { createApiKey } from '../src/services/api-keys/create.js';
import type { ServiceContext } from '../src/services/context.js';
import type { Store } from '../src/store/index.js';
import { seed } from './seed.js';
import type { DialectCase } from './store-dialects.js';

export const BASE_URL = 'http://warden.test';
/** A fixed start so buckets and windows are predictable: 2026-03-10 12:00 UTC. */
export const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);

/** Organization A manages a relay, two monitors and a page with a component, an incident and a maintenance window in its file. */
export const ORG_A_YAML = `
organization: { key: alpha, name: Alpha }
relays:
  - { key: basement, name: Basement }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: 127.0.0.1, port: 25565 } }
  - { key: panel, name: Panel, type: pterodactyl, runOn: relay, relay: basement, config: { panelUrl: "https://panel.example.com", serverId: abcd1234, apiKey: ptlc_secret_value } }
pages:
  - slug: alpha
    title: Alpha status
    components:
      - { key: lobby, name: Lobby, monitor: lobby }
    incidents:
      - { key: outage, title: Outage, startedAt: 2026-03-01T00:00:00Z, updates: [{ at: 2026-03-01T00:00:00Z, status: investigating, message: Looking }] }
    maintenance:
      - { key: upgrade, title: Upgrade, startsAt: 2026-04-01T00:00:00Z, endsAt: 2026-04-01T02:00:00Z }
`;

export const ORG_B_YAML = `
organization: { key: beta, name: Beta }
relays:
  - { key: cellar, name: Cellar }
monitors:
  - { key: hub, name: Hub, type: tcp, config: { host: 127.0.0.1, port: 25566 } }
pages:
  - slug: beta
    title: Beta status
    components:
      - { key: hub, name: Hub, monitor: hub }
    incidents:
      - { key: fire, title: Fire, startedAt: 2026-03-01T00:00:00Z }
    maintenance:
      - { key: move, title: Move, startsAt: 2026-04-01T00:00:00Z, endsAt: 2026-04-01T02:00:00Z }
`;

export interface TestOrganization {
  id: string;
  monitors: Record<string, Monitor>;
  readKey: string;
  writeKey: string;
}

export interface ApiHarness {
  app: App;
  store: Store;
  /** The verbs' context of the harness's app (no organization). */
  context: ServiceContext;
  ingest: Ingest;
  /** The page cache the public routes answer from; not started (a test that reads public pages starts it). */
  pages: WardenParts['pages'];
  /** The notification dispatcher, not started: a test sends what is due with `tick()`. */
  dispatcher: WardenParts['dispatcher'];
  /** The reminders' and the escalation scan's sweeps, not started: a test runs a pass with `sweep()`. */
  reminders: WardenParts['reminders'];
  escalation: WardenParts['escalation'];
  events: WardenEvent[];
  clock: { now(): number; advance(ms: number): void };
  a: TestOrganization;
  b: TestOrganization;
  /** A request with a key and, for objects, a JSON body (a Uint8Array: sent as raw bytes). */
  call(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface ApiHarnessOptions {
  rateLimitPerMinute?: number;
  /** Per-client limits (login attempts, trusting X-Forwarded-For); SECURITY_DEFAULTS for the rest. */
  security?: Partial<SecurityOptions>;
  /** WARDEN_SIGNUP and the OpenID Connect provider; kept by reference, so a test may change `signup` between requests. */
  accounts?: AccountSettings;
  /** The system SMTP server (invitation and subscriber mail), e.g. test/fakes/smtp-server.ts. */
  smtp?: SmtpSettings;
  /** DNS servers for custom-domain verification, e.g. test/fakes/dns-server.ts. */
  domains?: DomainOptions;
  /** Smaller limits of mail through the system SMTP server. */
  systemMailLimits?: Partial<SystemMailLimits>;
}

export async function openApiHarness(dialect: DialectCase, options: ApiHarnessOptions = {}): Promise<ApiHarness> {
  const opened = await dialect.open();
  const { store } = opened;
  let now = T0;
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
  // TEST_LOG=debug shows the server's logs while debugging a test.
  const logger = createLogger(process.env.TEST_LOG ?? 'silent');
  const parts = composeWarden({
    store,
    clock,
    logger,
    baseUrl: () => BASE_URL,
    ...(options.rateLimitPerMinute ? { apiRateLimitPerMinute: options.rateLimitPerMinute } : {}),
    ...(options.security ? { security: options.security } : {}),
    ...(options.accounts ? { accounts: options.accounts } : {}),
    ...(options.smtp ? { smtp: options.smtp } : {}),
    ...(options.domains ? { domains: options.domains } : {}),
    ...(options.systemMailLimits ? { systemMailLimits: options.systemMailLimits } : {}),
  });
  const { app, bus, ingest, pages, context, dispatcher, reminders, escalation } = parts;
  const events: WardenEvent[] = [];
  for (const type of ['page.changed', 'monitors.changed'] as const) bus.subscribe(type, (e) => events.push(e));
  const organization = async (yaml: string): Promise<TestOrganization> => {
    const { report, monitors } = await seed(store, yaml, now);
    const id = report.organization.id;
    const key = async (scope: 'read' | 'write') =>
      (await createApiKey({ ...context, organizationId: id }, { name: scope, scope })).secret;
    return { id, monitors, readKey: await key('read'), writeKey: await key('write') };
  };
  const a = await organization(ORG_A_YAML);
  const b = await organization(ORG_B_YAML);
  const call: ApiHarness['call'] = (method, path, { key = a.writeKey, body: given, headers = {} } = {}) => {
    const body = method === 'GET' || method === 'HEAD' ? undefined : given;
    return Promise.resolve(
      app.request(path, {
        method,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          // Bytes (an image upload) go as they are, under the type the caller names in `headers`.
          ...(body === undefined || body instanceof Uint8Array ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined
          ? {}
          : {
              body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
            }),
      }),
    );
  };
  return {
    app,
    store,
    context,
    ingest,
    pages,
    dispatcher,
    reminders,
    escalation,
    events,
    clock,
    a,
    b,
    call,
    async close() {
      await pages.stop();
      await ingest.close();
      await opened.cleanup();
    },
  };
}
