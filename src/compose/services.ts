// Every service built around a store, without starting timers or listening: what the lifecycle (src/main.ts) starts
// and stops, and what the HTTP app is built from (`appDeps`): the server builds the app on the first request its fast
// paths leave to it; tests build it at once (composeWarden, src/compose.ts).
import { type Bus, createInProcessBus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import { createRedisBus, type RedisBus } from '../bus/redis-bus.js';
import { createActivityPoll } from '../cluster/activity-poll.js';
import { type Coordinator, createCoordinator } from '../cluster/coordinator.js';
import type { SharedLimitOptions } from '../cluster/shared-limits.js';
import { LEASE_DEFAULTS, type Singleton } from '../domain/cluster.js';
import { SECURITY_DEFAULTS, type SecurityOptions } from '../domain/security.js';
import type { FastPath } from '../http/pre-router.js';
import { healthFastPath } from '../http/routes/health.js';
import { pushFastPath } from '../http/routes/push/fast-path.js';
import { pageFastPath } from '../http/routes/status/fast-path.js';
import { createGuards } from '../notify/dispatch/send.js';
import { createBoards } from '../runner/boards.js';
import { createChangeWatch } from '../runner/change-watch.js';
import { createDomainRecheck } from '../runner/domain-recheck.js';
import { createEscalationScan } from '../runner/escalation.js';
import { createIncidentDrafts } from '../runner/incident-drafts.js';
import { createIngest } from '../runner/ingest.js';
import { createMaintenanceNotices } from '../runner/maintenance-notices.js';
import { createMonthlyReports } from '../runner/monthly-reports.js';
import { createNotifyReminders } from '../runner/notify-reminders.js';
import { createRetention, RETENTION_DEFAULTS } from '../runner/retention.js';
import { createScheduler } from '../runner/scheduler.js';
import { createTxtLookup } from '../runner/txt-lookup.js';
import { createWatchdog } from '../runner/watchdog.js';
import { serviceContext } from '../services/context.js';
import { createDraftScan } from '../services/incidents/draft-scan.js';
import { createPageCache } from '../services/pages/page-cache.js';
import { createPushTokenCache } from '../services/push/token-cache.js';
import { sendMonthlyReports } from '../services/reports/monthly-report.js';
import { composeAccess } from './access.js';
import { appDepsOf } from './app-deps.js';
import { composeNotifications } from './notifications.js';
import type { ComposeOptions } from './options.js';

export function composeServices(options: ComposeOptions) {
  const { store, clock, logger } = options;
  const security: SecurityOptions = { ...SECURITY_DEFAULTS, ...options.security };
  const coordinator: Coordinator | null = options.cluster
    ? createCoordinator({ store, clock, logger, ...options.cluster })
    : null;
  const { bus, redisBus, shared } = composeBus(options);
  const { systemMail, dispatcher, outbox } = composeNotifications({ ...options, bus, security, shared });
  const context = serviceContext({
    store,
    bus,
    clock,
    logger,
    notify: outbox,
    smtp: options.smtp,
    systemMail,
    metrics: options.metrics,
    baseUrl: options.baseUrl,
  });
  const ingest = createIngest({ ...context, outbox });
  const access = composeAccess(security, shared);
  const pages = createPageCache({ ...context, baseUrl: options.baseUrl, renderBytes: options.pageCacheBytes });
  const pushTokens = createPushTokenCache(context);
  const domainTxt = createTxtLookup({ servers: options.domains?.dnsServers });
  const appDeps = appDepsOf(options, {
    context,
    security,
    ingest,
    pages,
    pushTokens,
    domainTxt,
    coordinator,
    shared,
    ...access,
  });
  const fastPaths: FastPath[] = [
    healthFastPath({ ...context, isReady: appDeps.isReady, clusterView: appDeps.clusterView }),
    pushFastPath({ ...context, ingest, pushTokens, pushLimiter: access.pushLimiter }),
    pageFastPath(pages),
  ];
  const scheduler = createScheduler({
    ...context,
    ingest,
    probePrivateTargets: security.probePrivateTargets,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(coordinator ? { owns: coordinator.owns } : {}),
  });
  // Shards moved: monitors newly owned start, those handed back are dropped (their checks in flight recorded first).
  coordinator?.onShardsChanged(() => scheduler.reload());
  /** A singleton runner sweeps only on the instance holding its lease; in one process, always. */
  const gate = (singleton: Singleton) => (coordinator ? () => coordinator.holds(singleton) : undefined);
  // A failover (a lease lapsing, then the next round taking it) must not pass for silence: twice the lease time of grace.
  const watchdog = createWatchdog({
    ...context,
    ingest,
    gate: gate('watchdog'),
    staleGraceMs: options.cluster ? 2 * (options.cluster.ttlMs ?? LEASE_DEFAULTS.ttlMs) : 0,
  });
  // Reminders and flap summaries, published like any event (notify-outbox) on their stable ids.
  const reminders = createNotifyReminders({
    ...context,
    gate: gate('notify-reminders'),
    ackLinkBase: () => context.baseUrl ?? '',
  });
  // Escalation steps of unacknowledged alerts: every process may sweep, each step is recorded once on its alert.
  const escalation = createEscalationScan({ ...context, baseUrl: () => context.baseUrl ?? '' });
  const retention = createRetention({
    ...context,
    ...(options.retention ?? RETENTION_DEFAULTS),
    gate: gate('retention'),
  });
  const maintenanceNotices = createMaintenanceNotices({ ...context, gate: gate('maintenance-notices') });
  // Every process looks; the organization's claim of the month mails each report once.
  const monthlyReports = createMonthlyReports({ pass: () => sendMonthlyReports(context), logger });
  // Draft incidents: every process scans; a spell's unique key drafts (or publishes) it once.
  const incidentDrafts = createIncidentDrafts({ ...context, scan: createDraftScan(context) });
  // Discord boards: every process renders and may send; the store's claims send each edit once.
  const boards = createBoards({
    ...context,
    pages,
    guards: createGuards(store, security.probePrivateTargets, BOARD_POLICY_MAX_AGE_MS),
  });
  const domainRecheck = createDomainRecheck({
    ...context,
    domainTxt,
    everyMs: options.domains?.recheckEveryMs,
    gate: gate('domain-recheck'),
  });
  // Another process's committed writes (the counter moved): reload what this one keeps in memory.
  const changeWatch = createChangeWatch({
    store,
    logger,
    everyMs: security.changePollMs,
    forget: () => {
      pushTokens.clear();
      outbox.invalidate();
    },
    reload: async () => {
      await Promise.all([pages.refreshAll(), scheduler.reload()]);
    },
  });
  // Redis away: the other processes' monitor results are polled from PostgreSQL, so live streams keep updating.
  const activityPoll = redisBus
    ? createActivityPoll({ store, bus: redisBus, pages, clock, logger, everyMs: security.changePollMs })
    : null;
  const { pageAccess, pushLimiter } = access;
  return {
    context,
    security,
    appDeps,
    bus,
    redisBus,
    activityPoll,
    ingest,
    outbox,
    dispatcher,
    pages,
    pageAccess,
    pushTokens,
    pushLimiter,
    fastPaths,
    scheduler,
    watchdog,
    reminders,
    escalation,
    retention,
    maintenanceNotices,
    monthlyReports,
    incidentDrafts,
    boards,
    domainTxt,
    domainRecheck,
    changeWatch,
    coordinator,
  };
}

/** How long the boards' sender trusts an organization's target policy it read. */
const BOARD_POLICY_MAX_AGE_MS = 30_000;

/** The event bus and the limits' shared counters: Redis's when there is one (cluster mode), else in this process. */
function composeBus({ redis, logger }: ComposeOptions): {
  bus: Bus;
  redisBus: RedisBus | null;
  shared: SharedLimitOptions | null;
} {
  const onHandlerError = (error: unknown, event: WardenEvent) =>
    logger.error({ err: error, event: event.type }, 'event handler failed');
  const redisBus = redis
    ? createRedisBus({
        publisher: redis.connections.commands,
        subscriber: redis.connections.subscriber,
        channel: `${redis.prefix}:events`,
        instanceId: redis.instanceId,
        logger,
        onHandlerError,
      })
    : null;
  const bus: Bus = redisBus ?? createInProcessBus(onHandlerError);
  const shared: SharedLimitOptions | null = redis
    ? { redis: redis.connections.commands, prefix: redis.prefix, logger }
    : null;
  return { bus, redisBus, shared };
}

export type ServiceParts = ReturnType<typeof composeServices>;
