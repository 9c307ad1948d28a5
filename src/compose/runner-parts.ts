// The running services as lifecycle parts, in start order (they stop in reverse): the page cache, the dispatcher, the
// cluster's leases, then ingest and the runners that feed it, then what watches other processes' writes. The services
// are made by an earlier part: each part reads them when it starts or stops.
import type { Part } from '../runtime/lifecycle.js';
import type { ServiceParts } from './services.js';

/** `cluster`: cluster mode, whose coordinator and activity poll are parts too. */
export function runnerParts(services: () => ServiceParts, cluster: boolean): Part[] {
  const part = (name: string, of: (parts: ServiceParts) => { start(): unknown; stop(): unknown }): Part => ({
    name,
    start: async () => void (await of(services()).start()),
    stop: async () => void (await of(services()).stop()),
  });
  return [
    {
      name: 'pages',
      // Writes committed by another process from now on are seen by the poll; what came before, the caches load now.
      start: async () => {
        await services().changeWatch.prime();
        await services().pages.start();
      },
      stop: () => services().pages.stop(),
    },
    // Stopped after the leases are handed back: sends in flight get a short grace (DISPATCH_DEFAULTS.stopGraceMs) to
    // finish and be acknowledged; the claims of the rest are released, so they are sent at once after a restart.
    part('dispatcher', (parts) => parts.dispatcher),
    // Cluster mode: this instance's shards and singletons first, so the scheduler starts with its share; stopped once
    // the checks in flight are committed, handing the leases back so peers resume at once, not a TTL later.
    ...(cluster ? [part('coordinator', (parts) => parts.coordinator as NonNullable<ServiceParts['coordinator']>)] : []),
    // Nothing to start: what the runners below hand it is committed by its close, once they stopped.
    { name: 'ingest', start: () => {}, stop: () => services().ingest.close() },
    part('scheduler', (parts) => parts.scheduler),
    part('watchdog', (parts) => parts.watchdog),
    part('reminders', (parts) => parts.reminders),
    part('escalation', (parts) => parts.escalation),
    part('retention', (parts) => parts.retention),
    part('maintenance-notices', (parts) => parts.maintenanceNotices),
    part('monthly-reports', (parts) => parts.monthlyReports),
    part('incident-drafts', (parts) => parts.incidentDrafts),
    part('boards', (parts) => parts.boards),
    part('domain-recheck', (parts) => parts.domainRecheck),
    part('change-watch', (parts) => parts.changeWatch),
    ...(cluster
      ? [
          {
            name: 'activity-poll',
            // Subscribed before serving, so a client of this process gets what others publish from the start (or,
            // Redis unreachable now, the poll delivers it until it is reachable).
            start: async () => {
              const { REDIS_DEFAULTS } = await import('../cluster/redis.js');
              await services().redisBus?.subscribed(REDIS_DEFAULTS.connectTimeoutMs);
              services().activityPoll?.start();
            },
            stop: () => services().activityPoll?.stop(),
          },
        ]
      : []),
  ];
}
