// /api/v1/monitors: list (filtered and paged), read, history, latency per location, create, change, delete, a push token.
import { z } from '@hono/zod-openapi';
import { monitorLabel } from '../../../services/audit/labels.js';
import { findMonitors, monitorListQuerySchema } from '../../../services/monitors/find.js';
import { monitorHistory, monitorHistorySchema } from '../../../services/monitors/history.js';
import {
  latencyQuerySchema,
  locationLatency,
  locationLatencySchema,
} from '../../../services/monitors/location-latency.js';
import { rotatePushToken } from '../../../services/monitors/push-token.js';
import { getMonitor } from '../../../services/monitors/read.js';
import { historyQuerySchema, monitorCreateSchema, monitorPatchSchema } from '../../../services/monitors/schema.js';
import { updateMonitor } from '../../../services/monitors/update.js';
import { monitorWithRelaySchema } from '../../../services/monitors/view.js';
import { createMonitor, deleteMonitor } from '../../../services/monitors/write.js';
import type { App } from '../../env.js';
import type { ApiRunning } from './index.js';
import { monitorInsightRoutes } from './monitor-insights.js';
import { changeOne, deletedAudit, deleteOne, keyedAudit, readOne } from './one-object.js';
import { type ApiGuards, apiOperation, idOrKeyParam } from './operation.js';

const Monitor = monitorWithRelaySchema.openapi('Monitor');
const MonitorWithPushToken = monitorWithRelaySchema
  .extend({
    pushToken: z
      .string()
      .nullable()
      .describe('Push monitors: the push token, shown this once; null for other monitors.'),
  })
  .openapi('MonitorWithPushToken');
const params = z.object({ id: idOrKeyParam('monitor', 'mon_3k9x2m4q8r7t1v5w') });
const notFound = 'No monitor with this id or key in your organization.';
const withToken = ({ monitor, pushToken }: { monitor: z.infer<typeof Monitor>; pushToken: string | null }) => ({
  ...monitor,
  pushToken,
});

const MonitorList = z
  .object({
    monitors: z.array(Monitor),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .describe('With `limit`: pass as `cursor` for the next page; null on the last page.'),
    total: z.number().int().optional().describe('With `limit`: how many monitors match the filters in all.'),
  })
  .openapi('MonitorList');
const MonitorCreate = monitorCreateSchema.openapi('MonitorCreate');

export function monitorRoutes(app: App, guards: ApiGuards, running: ApiRunning): void {
  const op = { tag: 'monitors', path: '/api/v1/monitors' } as const;
  monitorInsightRoutes(app, guards, MonitorCreate, running);
  apiOperation(app, guards, {
    ...op,
    method: 'get',
    summary: 'List monitors',
    description:
      "The organization's monitors with their state and latest result; secrets of the configuration redacted. Without parameters, all of them by key. Filters, `q` and `sort` narrow and order the list; `limit` pages it (`{ monitors, nextCursor, total }`).",
    scope: 'read',
    query: monitorListQuerySchema,
    ok: { status: 200, schema: MonitorList, description: 'The monitors.' },
    run: findMonitors,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    summary: 'Create a monitor',
    description:
      'The body is a monitor as in warden.yaml (one shape per type, chosen by `type`). A push (heartbeat) monitor gets a push token, returned this once.',
    scope: 'write',
    body: MonitorCreate,
    ok: { status: 201, schema: MonitorWithPushToken, description: 'Created.' },
    run: createMonitor,
    respond: withToken,
    audit: { action: 'monitor.create', object: (_input, { monitor }) => ({ id: monitor.id, label: monitor.key }) },
  });
  const one = { ...op, path: '/api/v1/monitors/{id}', params, notFound } as const;
  apiOperation(app, guards, { ...one, ...readOne('monitor', Monitor), run: getMonitor });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/monitors/{id}/history',
    method: 'get',
    summary: "A monitor's history",
    description:
      'Raw checks of the window (newest first, paginated by cursor) and its hourly (up to 7 days) or daily buckets with count, uptime, latency and players, and the uptime of the whole window.',
    scope: 'read',
    query: historyQuerySchema,
    ok: { status: 200, schema: monitorHistorySchema.openapi('MonitorHistory'), description: 'The history.' },
    run: monitorHistory,
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/monitors/{id}/latency',
    method: 'get',
    summary: "A monitor's latency per location",
    description:
      'Hourly latency (average, min, max) and checks per location over the window: one series per location the monitor runs at ("edge" or a relay key), its own place first (docs/monitors.md, "Several locations").',
    scope: 'read',
    query: latencyQuerySchema,
    ok: { status: 200, schema: locationLatencySchema.openapi('MonitorLatency'), description: 'The series.' },
    run: locationLatency,
  });
  apiOperation(app, guards, {
    ...one,
    ...changeOne('monitor', monitorPatchSchema.openapi('MonitorPatch'), Monitor),
    description:
      'Changes the fields given. The type and key stay. Monitors managed by warden.yaml answer 409. The edge runner, relays and pages showing the monitor follow at once.',
    run: updateMonitor,
    audit: keyedAudit('monitor.update'),
  });
  apiOperation(app, guards, {
    ...one,
    ...deleteOne('monitor'),
    description: 'Deletes the monitor and its history. Monitors managed by warden.yaml answer 409.',
    run: deleteMonitor,
    audit: deletedAudit('monitor.delete', monitorLabel),
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/monitors/{id}/push-token',
    method: 'post',
    summary: 'Issue a new push token',
    description: 'For push monitors: a new token, shown this once; the previous one stops working at once.',
    scope: 'write',
    ok: { status: 200, schema: MonitorWithPushToken, description: 'The monitor and its new push token.' },
    run: rotatePushToken,
    respond: withToken,
    audit: {
      action: 'monitor.rotate-push-token',
      object: (_input, { monitor }) => ({ id: monitor.id, label: monitor.key }),
    },
  });
}
