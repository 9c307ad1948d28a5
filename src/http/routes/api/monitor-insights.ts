// The dashboard's monitor operations: sparklines, stats, state history, "check now", "test", and the monitor types' schemas.
import { z } from '@hono/zod-openapi';
import { API_LIMITS } from '../../../services/api-limits.js';
import { monitorLabel } from '../../../services/audit/labels.js';
import type { ServiceContext } from '../../../services/context.js';
import {
  checkMonitorNow,
  checkNowSchema,
  type ProbeRunContext,
  probeRunSchema,
  testMonitor,
} from '../../../services/monitors/run-check.js';
import type { monitorCreateSchema } from '../../../services/monitors/schema.js';
import { monitorSparklines, sparklineQuerySchema, sparklinesSchema } from '../../../services/monitors/sparklines.js';
import {
  monitorStateHistory,
  stateHistoryQuerySchema,
  stateHistorySchema,
} from '../../../services/monitors/state-history.js';
import { monitorStats, monitorStatsSchema, statsQuerySchema } from '../../../services/monitors/stats.js';
import { listMonitorTypes, monitorTypesSchema } from '../../../services/monitors/types.js';
import type { App } from '../../env.js';
import { budgetedGuards } from './budget.js';
import type { ApiRunning } from './index.js';
import { type ApiGuards, apiOperation, idOrKeyParam } from './operation.js';

const params = z.object({ id: idOrKeyParam('monitor', 'mon_3k9x2m4q8r7t1v5w') });
const notFound = 'No monitor with this id or key in your organization.';
const { requests, windowMs } = API_LIMITS.probeRuns;
const PROBE_RUN_LIMIT = `${requests} probe runs ("check now" and "test" together) per ${windowMs / 1000} s per organization`;

/**
 * Registered before `/api/v1/monitors/{id}`, whose parameter would otherwise take `sparklines`; `createBody` is the
 * create operation's named body schema, which `test` takes too.
 */
export function monitorInsightRoutes(
  app: App,
  guards: ApiGuards,
  createBody: typeof monitorCreateSchema,
  running: ApiRunning,
): void {
  /** A probe run's context: the request's, with the running server's ingest and probe-target policy. */
  const probing = (ctx: ServiceContext): ProbeRunContext => ({
    ...ctx,
    ingest: running.ingest,
    security: running.security,
  });
  const op = { tag: 'monitors', path: '/api/v1/monitors' } as const;
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/monitors/sparklines',
    method: 'get',
    summary: 'Sparklines of monitors',
    description:
      'For each monitor asked (your organization’s), 24 hourly points of uptime and average latency, oldest first: the strips of the monitor list.',
    scope: 'read',
    query: sparklineQuerySchema,
    ok: { status: 200, schema: sparklinesSchema.openapi('MonitorSparklines'), description: 'The sparklines.' },
    run: monitorSparklines,
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/monitor-types',
    method: 'get',
    summary: 'Monitor types',
    description:
      'Each monitor type with its label, where it runs, its secret fields and the JSON Schema of its `config`, and the schema of the fields every type shares: generated from the zod schemas the API validates with, for forms (descriptions, defaults, bounds).',
    scope: 'read',
    ok: { status: 200, schema: monitorTypesSchema.openapi('MonitorTypes'), description: 'The types.' },
    run: listMonitorTypes,
  });
  const probeGuards = budgetedGuards(guards, {
    requests,
    windowMs,
    title: 'Too many probe runs',
    limit: PROBE_RUN_LIMIT,
  });
  apiOperation(app, probeGuards, {
    ...op,
    path: '/api/v1/monitors/test',
    method: 'post',
    summary: 'Test a monitor',
    description: `Validates a monitor body as on create and runs its probe once, with the edge runner's timeout, result caps and probe-target policy; stores nothing. Relay and push monitors answer 409. At most ${PROBE_RUN_LIMIT} (429 beyond).`,
    scope: 'write',
    body: createBody,
    ok: { status: 200, schema: probeRunSchema.openapi('MonitorTestResult'), description: 'What the probe found.' },
    run: (ctx, input) => testMonitor(probing(ctx), input),
    // The probe holds no transaction; the entry follows it (a probe sent from the server is worth knowing of).
    audit: { action: 'monitor.test', object: (input) => ({ id: null, label: input.key }), outside: true },
  });
  const one = { ...op, params, notFound } as const;
  apiOperation(app, probeGuards, {
    ...one,
    path: '/api/v1/monitors/{id}/check',
    method: 'post',
    summary: 'Check a monitor now',
    description: `Runs an edge monitor's probe at once; the result is recorded like the runner's (history, state, live updates, notifications). Relay, push and paused monitors answer 409. At most ${PROBE_RUN_LIMIT} (429 beyond).`,
    scope: 'write',
    ok: {
      status: 200,
      schema: checkNowSchema.openapi('MonitorCheckNow'),
      description: 'The result and the state it left.',
    },
    run: (ctx, input) => checkMonitorNow(probing(ctx), input),
    audit: { action: 'monitor.check', object: () => ({ id: null, label: null }), before: monitorLabel, outside: true },
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/monitors/{id}/stats',
    method: 'get',
    summary: "A monitor's response times",
    description:
      'Checks, uptime, p50/p95 latency (from the buckets’ latency histograms) and players per hour (24h, 7d) or per day (30d, 90d), with totals of the window.',
    scope: 'read',
    query: statsQuerySchema,
    ok: { status: 200, schema: monitorStatsSchema.openapi('MonitorStats'), description: 'The points and totals.' },
    run: monitorStats,
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/monitors/{id}/states',
    method: 'get',
    summary: "A monitor's state history",
    description:
      'State changes, newest first, as they happened: recorded by ingest with the result (or silence) that caused each, and by pausing and resuming (to and from `paused`); kept as long as the raw checks (30 days by default).',
    scope: 'read',
    query: stateHistoryQuerySchema,
    ok: { status: 200, schema: stateHistorySchema.openapi('MonitorStateHistory'), description: 'The changes.' },
    run: monitorStateHistory,
  });
}
