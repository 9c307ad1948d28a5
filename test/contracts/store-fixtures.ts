// The store contract suite's fixtures: a fresh store per test on every dialect, and rows built through the repositories.
import { afterEach, beforeEach, describe } from 'vitest';
import { type CheckRow, DAY_MS, HOUR_MS } from '../../src/domain/check.js';
import type { IncidentSpec, MaintenanceSpec } from '../../src/domain/incident.js';
import type { MonitorSpec, MonitorStateRow, StoredToken } from '../../src/domain/monitor.js';
import type { NewDelivery, NotificationChannelSpec } from '../../src/domain/notification.js';
import type { ManagedBy } from '../../src/domain/ownership.js';
import type { ComponentSpec, PageSpec } from '../../src/domain/page.js';
import type { DialectConnection } from '../../src/store/dialects/connection.js';
import type { Store } from '../../src/store/index.js';
import { checkRepository } from '../../src/store/repositories/checks.js';
import { monitorRepository } from '../../src/store/repositories/monitors.js';
import { organizationRepository } from '../../src/store/repositories/organizations.js';
import { type DialectCase, dialects, type OpenedStore } from '../store-dialects.js';

/** A fixed "now", on a day boundary so hourly and daily buckets are easy to tell apart: 2026-03-02 00:00 UTC. */
export const NOW = Date.UTC(2026, 2, 2);

export const ORG = { id: 'org_a', key: 'acme', name: 'Acme' };
export const OTHER_ORG = { id: 'org_b', key: 'globex', name: 'Globex' };

/**
 * Declares `body` once per dialect (skipped, and said so, where the dialect is not reachable); every test gets a
 * fresh, migrated store from `store()`.
 */
export function describeStore(title: string, body: (store: () => Store, dialect: DialectCase) => void): void {
  for (const dialect of dialects)
    describe.skipIf(!dialect.available)(`${title} on ${dialect.name}`, () => {
      let opened: OpenedStore | undefined;
      beforeEach(async () => {
        opened = await dialect.open();
      });
      afterEach(async () => {
        await opened?.cleanup();
        opened = undefined;
      });
      const store = () => {
        if (!opened) throw new Error('the store is opened for each test; use it inside one');
        return opened.store;
      };
      body(store, dialect);
    });
}

/** The error a promise rejects with (fails when it resolves), for `isUniqueViolation`. */
export async function rejectionOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the write to fail');
}

export async function addOrganization(store: Store, organization = ORG): Promise<void> {
  await store.organizations.upsert(organization, NOW);
}

export function monitorSpec(key: string, overrides: Partial<MonitorSpec> = {}): MonitorSpec {
  return {
    key,
    name: `Monitor ${key}`,
    type: 'tcp',
    config: { host: 'play.example.com', port: 25565 },
    intervalSec: 60,
    timeoutMs: 5000,
    runOn: 'edge',
    relayId: null,
    enabled: true,
    retries: 1,
    degradedLatencyMs: null,
    ...overrides,
  };
}

export type MonitorFixture = Partial<MonitorSpec> & {
  organizationId?: string;
  managedBy?: ManagedBy;
  pushToken?: StoredToken | null;
};

/** Inserts monitor `mon_<key>` (of ORG unless told otherwise) and returns its id. */
export async function addMonitor(store: Store, key: string, fixture: MonitorFixture = {}, now = NOW): Promise<string> {
  const { organizationId = ORG.id, managedBy = 'api', pushToken = null, ...spec } = fixture;
  const id = `mon_${key}`;
  await store.monitors.insert({ ...monitorSpec(key, spec), id, organizationId, managedBy, pushToken }, now);
  return id;
}

/** Inserts relay `rly_<key>` and returns its id. */
export async function addRelay(store: Store, key: string, organizationId = ORG.id): Promise<string> {
  const id = `rly_${key}`;
  await store.relays.insert({ id, organizationId, key, name: `Relay ${key}`, managedBy: 'api' }, NOW);
  return id;
}

export function pageSpec(slug: string, overrides: Partial<PageSpec> = {}): PageSpec {
  return { slug, title: `Page ${slug}`, description: null, customDomain: null, aiPolicy: 'allow', ...overrides };
}

/** Inserts page `pg_<slug>` (of ORG unless told otherwise) and returns its id. */
export async function addPage(
  store: Store,
  slug: string,
  fixture: Partial<PageSpec> & { organizationId?: string; passwordHash?: string | null; managedBy?: ManagedBy } = {},
): Promise<string> {
  const { organizationId = ORG.id, passwordHash = null, managedBy = 'api', ...spec } = fixture;
  const id = `pg_${slug}`;
  await store.pages.insert({ ...pageSpec(slug, spec), id, organizationId, passwordHash, managedBy }, NOW);
  return id;
}

export function componentSpec(key: string, overrides: Partial<ComponentSpec> = {}): ComponentSpec {
  return {
    key,
    name: `Component ${key}`,
    description: null,
    group: null,
    order: 0,
    monitorId: null,
    join: 'auto',
    ...overrides,
  };
}

/** Inserts component `cmp_<key>` on a page and returns its id. */
export async function addComponent(
  store: Store,
  pageId: string,
  key: string,
  overrides: Partial<ComponentSpec> = {},
): Promise<string> {
  const id = `cmp_${key}`;
  await store.components.insert({ ...componentSpec(key, overrides), id, pageId, managedBy: 'api' }, NOW);
  return id;
}

export function incidentSpec(key: string | null, overrides: Partial<IncidentSpec> = {}): IncidentSpec {
  return {
    key,
    title: `Incident ${key ?? 'without key'}`,
    status: 'investigating',
    impact: 'minor',
    startedAt: NOW - HOUR_MS,
    resolvedAt: null,
    componentIds: [],
    updates: [],
    ...overrides,
  };
}

export function maintenanceSpec(key: string | null, overrides: Partial<MaintenanceSpec> = {}): MaintenanceSpec {
  return {
    key,
    title: `Maintenance ${key ?? 'without key'}`,
    description: null,
    startsAt: NOW + DAY_MS,
    endsAt: NOW + DAY_MS + 2 * HOUR_MS,
    recurrence: null,
    componentIds: [],
    monitorIds: [],
    announce: true,
    ...overrides,
  };
}

/** Names incident updates `<prefix>_1`, `<prefix>_2`, … in the order the store asks. */
export function updateIds(prefix = 'upd'): () => string {
  let n = 0;
  return () => `${prefix}_${++n}`;
}

/**
 * The organizations', monitors' and checks' repositories over one dialect's connection, where a test or bench works on
 * the connection itself (migrations, partitions) rather than a whole store: enough to add monitors and their history.
 */
export function historyStore(
  connection: Pick<DialectConnection, 'db' | 'dialect' | 'writeChecks' | 'checkJournal'>,
): Store {
  const { db, dialect } = connection;
  return {
    organizations: organizationRepository(db),
    monitors: monitorRepository(db, dialect),
    checks: checkRepository(db, connection.writeChecks, connection.checkJournal),
  } as unknown as Store;
}

/** A passing edge check of 20 ms without data, unless told otherwise. */
export function check(monitorId: string, checkedAt: number, overrides: Partial<CheckRow> = {}): CheckRow {
  return {
    monitorId,
    checkedAt,
    ok: true,
    degraded: false,
    latencyMs: 20,
    message: null,
    error: null,
    data: null,
    source: 'edge',
    resultId: null,
    ...overrides,
  };
}

/** A monitor's state as ingest writes it: up since NOW, last checked at NOW, unless told otherwise. */
export function stateRow(monitorId: string, overrides: Partial<MonitorStateRow> = {}): MonitorStateRow {
  return {
    id: monitorId,
    organizationId: ORG.id,
    retries: 1,
    degradedLatencyMs: null,
    state: 'up',
    stateSince: NOW,
    failureStreak: 0,
    lastCheckAt: NOW,
    lastResult: null,
    playerAlerts: null,
    playerAlertsState: null,
    ...overrides,
  };
}

/** ORG with page `status` holding components `cmp_a` and `cmp_b`: what incidents and maintenance are written on. */
export async function addPageWithTwoComponents(store: Store): Promise<string> {
  await addOrganization(store);
  const pageId = await addPage(store, 'status');
  await addComponent(store, pageId, 'a');
  await addComponent(store, pageId, 'b');
  return pageId;
}

/** A webhook channel's spec (an address nothing listens on). */
export function channelSpec(key: string, overrides: Partial<NotificationChannelSpec> = {}): NotificationChannelSpec {
  return {
    key,
    name: `Channel ${key}`,
    type: 'webhook',
    config: { url: 'http://127.0.0.1:1/hook' },
    rules: {},
    enabled: true,
    ...overrides,
  };
}

/** Inserts a channel `nch_<key>` of the organization (ORG unless given). */
export async function addChannel(
  store: Store,
  key: string,
  overrides: Partial<NotificationChannelSpec> & { organizationId?: string } = {},
): Promise<string> {
  const { organizationId = ORG.id, ...spec } = overrides;
  const id = `nch_${key}`;
  await store.channels.insert({ ...channelSpec(key, spec), id, organizationId, managedBy: 'api' }, NOW);
  return id;
}

let seq = 0;
/** A pending delivery of a `monitor.down` event about mon_a, due now; ids in the order they are made. */
export function delivery(channelId: string, eventId: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  seq += 1;
  return {
    id: `dlv_${String(seq).padStart(6, '0')}`,
    eventId,
    channelId,
    organizationId: ORG.id,
    monitorId: 'mon_a',
    kind: 'monitor.down',
    event: JSON.stringify({ id: eventId }),
    nextAttemptAt: NOW,
    ...overrides,
  };
}

/** Ids in order, whatever order the store gave them in (no ids: none). */
export const sorted = (ids: readonly string[] | undefined) => [...(ids ?? [])].sort();

/** What a monitor holds after a write: its checks (newest first), buckets of both periods and state. */
export async function written(store: Store, monitorId: string) {
  const checks = await store.checks.list(monitorId, { from: 0, to: NOW + DAY_MS, limit: 100 });
  return {
    checks: checks.map(({ id, ...rest }) => rest),
    hourly: await store.checks.buckets('hour', [monitorId], 0, NOW + DAY_MS),
    daily: await store.checks.buckets('day', [monitorId], 0, NOW + DAY_MS),
    state: (({ state, stateSince, failureStreak, lastCheckAt, lastResult }) => ({
      state,
      stateSince,
      failureStreak,
      lastCheckAt,
      lastResult,
    }))((await store.monitors.findById(monitorId))!),
  };
}
