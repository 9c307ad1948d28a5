// /api/v1/monitors: list, read, history, create, change, delete, and a new push token.
import { createRoute, z } from '@hono/zod-openapi';
import { createMonitor } from '../../../services/monitors/create.js';
import { deleteMonitor } from '../../../services/monitors/delete.js';
import { getMonitor } from '../../../services/monitors/get.js';
import { monitorHistory, monitorHistorySchema } from '../../../services/monitors/history.js';
import { listMonitors } from '../../../services/monitors/list.js';
import { rotatePushToken } from '../../../services/monitors/rotate-push-token.js';
import { historyQuerySchema, monitorCreateSchema, monitorPatchSchema } from '../../../services/monitors/schema.js';
import { updateMonitor } from '../../../services/monitors/update.js';
import { monitorWithRelaySchema } from '../../../services/monitors/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, listProblems, organizationOf, readProblems, services, writeProblems } from './route.js';

const Monitor = monitorWithRelaySchema.openapi('Monitor');
const MonitorWithPushToken = monitorWithRelaySchema
  .extend({ pushToken: z.string().nullable().describe('Push monitors: the push token, shown this once; null for other monitors.') })
  .openapi('MonitorWithPushToken');
const MonitorCreate = monitorCreateSchema.openapi('MonitorCreate');
const MonitorPatch = monitorPatchSchema.openapi('MonitorPatch');
const MonitorHistory = monitorHistorySchema.openapi('MonitorHistory');
const params = z.object({ id: idParam('monitor', 'mon_3k9x2m4q8r7t1v5w') });
const tags = [TAGS.monitors.name];
const notFound = { 404: problemResponse(404, 'No monitor with this id in your organization.') };

export function monitorRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/monitors',
      tags,
      summary: 'List monitors',
      description: "The organization's monitors with their state and latest result. Secrets of the configuration are redacted.",
      security: security.apiKey,
      middleware: guards.read,
      responses: {
        200: jsonResponse(z.object({ monitors: z.array(Monitor) }), 'The monitors, by key.', RATE_LIMIT_HEADERS),
        ...listProblems,
      },
    }),
    async (c) => c.json({ monitors: await listMonitors(services(c).db, organizationOf(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/monitors',
      tags,
      summary: 'Create a monitor',
      description:
        'The body is a monitor as in warden.yaml (one shape per type, chosen by `type`). A push (heartbeat) monitor gets a push token, returned this once.',
      security: security.apiKey,
      middleware: guards.write,
      request: { body: jsonBody(MonitorCreate) },
      responses: {
        201: jsonResponse(MonitorWithPushToken, 'Created.', RATE_LIMIT_HEADERS),
        ...writeProblems,
      },
    }),
    async (c) => {
      const { monitor, pushToken } = await inBody(createMonitor(services(c), organizationOf(c), c.req.valid('json')));
      return c.json({ ...monitor, pushToken }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/monitors/{id}',
      tags,
      summary: 'Read a monitor',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: {
        200: jsonResponse(Monitor, 'The monitor.', RATE_LIMIT_HEADERS),
        ...readProblems,
        ...notFound,
      },
    }),
    async (c) => c.json(await getMonitor(services(c).db, organizationOf(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/monitors/{id}/history',
      tags,
      summary: "A monitor's history",
      description:
        'Raw checks of the window (newest first, paginated by cursor) and its hourly (up to 7 days) or daily buckets with count, uptime, latency and players, and the uptime of the whole window.',
      security: security.apiKey,
      middleware: guards.read,
      request: { params, query: historyQuerySchema },
      responses: {
        200: jsonResponse(MonitorHistory, 'The history.', RATE_LIMIT_HEADERS),
        ...readProblems,
        ...notFound,
      },
    }),
    async (c) => {
      const { db, clock } = services(c);
      return c.json(await monitorHistory(db, organizationOf(c), c.req.valid('param').id, c.req.valid('query'), clock.now()), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/monitors/{id}',
      tags,
      summary: 'Change a monitor',
      description:
        'Changes the fields given. The type and key stay. Monitors managed by warden.yaml answer 409. The edge runner, relays and pages showing the monitor follow at once.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(MonitorPatch) },
      responses: {
        200: jsonResponse(Monitor, 'The changed monitor.', RATE_LIMIT_HEADERS),
        ...writeProblems,
        ...notFound,
      },
    }),
    async (c) => c.json(await inBody(updateMonitor(services(c), organizationOf(c), c.req.valid('param').id, c.req.valid('json'))), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/monitors/{id}',
      tags,
      summary: 'Delete a monitor',
      description: 'Deletes the monitor and its history. Monitors managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: {
        204: { description: 'Deleted.' },
        ...writeProblems,
        ...notFound,
      },
    }),
    async (c) => {
      await deleteMonitor(services(c), organizationOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/monitors/{id}/push-token',
      tags,
      summary: 'Issue a new push token',
      description: 'For push monitors: a new token, shown this once; the previous one stops working at once.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: {
        200: jsonResponse(MonitorWithPushToken, 'The monitor and its new push token.', RATE_LIMIT_HEADERS),
        ...writeProblems,
        ...notFound,
      },
    }),
    async (c) => {
      const { monitor, pushToken } = await rotatePushToken(services(c), organizationOf(c), c.req.valid('param').id);
      return c.json({ ...monitor, pushToken }, 200);
    },
  );
}
