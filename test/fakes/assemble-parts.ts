// Plain parts of a page's snapshot for the assembleSnapshot tests: a page, monitors, components and check buckets at a
// fixed now, and the parts of a snapshot with nothing but what a test gives.
import { EMPTY_BRANDING } from '../../src/domain/branding.js';
import type { BucketCount as Bucket } from '../../src/domain/check.js';
import type { Maintenance } from '../../src/domain/incident.js';
import type { Monitor } from '../../src/domain/monitor.js';
import type { Component, Page } from '../../src/domain/page.js';
import type { SnapshotParts } from '../../src/services/pages/build-snapshot.js';

export const NOW = Date.UTC(2026, 10, 20, 12, 30);
export const TODAY = Date.UTC(2026, 10, 20);

export const page: Page = {
  id: 'pg_1',
  organizationId: 'org_1',
  slug: 'acme',
  title: 'Acme',
  description: null,
  customDomain: null,
  customDomainToken: null,
  customDomainVerifiedAt: null,
  customDomainCheckedAt: null,
  passwordHash: null,
  aiPolicy: 'allow',
  notify: null,
  subscriptions: false,
  showPlayerNames: false,
  announceGameChanges: false,
  publishUptimeHistory: false,
  showUnreachable: false,
  draftIncidents: null,
  language: null,
  timeZone: 'UTC',
  branding: EMPTY_BRANDING,
  customCss: null,
  managedBy: 'config',
  createdAt: 0,
  updatedAt: 0,
};

export function monitor(id: string, over: Partial<Monitor> = {}): Monitor {
  return {
    id,
    organizationId: 'org_1',
    key: id,
    name: id,
    type: 'minecraft-java',
    config: {},
    intervalSec: 60,
    timeoutMs: 1000,
    runOn: 'edge',
    relayId: null,
    pushTokenPrefix: null,
    enabled: true,
    pausedAt: null,
    retries: 1,
    degradedLatencyMs: null,
    state: 'up',
    stateSince: NOW - 1000,
    failureStreak: 0,
    lastCheckAt: NOW,
    secretsSetAt: null,
    notify: null,
    tags: [],
    playerAlerts: null,
    expectedRestart: null,
    dependsOn: null,
    locations: null,
    quorum: null,
    locationResults: {},
    managedBy: 'config',
    createdAt: 0,
    updatedAt: 0,
    lastResult: {
      checkedAt: NOW,
      ok: true,
      latencyMs: 30,
      message: 'ok',
      error: null,
      data: { players: 5, maxPlayers: 20 },
      source: 'edge',
    },
    ...over,
  };
}

export function component(id: string, monitorId: string | null, order = 0): Component {
  return {
    id,
    pageId: 'pg_1',
    key: id,
    name: `Component ${id}`,
    description: null,
    group: null,
    order,
    monitorId,
    join: 'auto',
    managedBy: 'config',
    createdAt: 0,
    updatedAt: 0,
  };
}

export function bucket(monitorId: string, start: number, count: number, upCount: number): Bucket {
  return { monitorId, start, count, upCount, degradedCount: 0 };
}

/** A one-off window on the page, in progress at NOW unless told otherwise, page-wide unless it names something. */
export function maintenanceWindow(id: string, over: Partial<Maintenance> = {}): Maintenance {
  return {
    id,
    pageId: 'pg_1',
    key: null,
    title: id,
    description: null,
    startsAt: NOW - 1000,
    endsAt: NOW + 1000,
    recurrence: null,
    componentIds: [],
    monitorIds: [],
    announce: true,
    managedBy: 'api',
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

export function parts(over: Partial<SnapshotParts>): SnapshotParts {
  return {
    page,
    pageUrl: 'http://x/s/acme',
    now: NOW,
    components: [],
    monitors: new Map(),
    incidents: [],
    windows: [],
    daily: [],
    hourly: [],
    ...over,
  };
}
