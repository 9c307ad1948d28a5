// /api/v1/pages/{slug}/maintenance: scheduled maintenance windows.
import { createRoute, z } from '@hono/zod-openapi';
import { createMaintenance } from '../../../services/maintenance/create.js';
import { deleteMaintenance } from '../../../services/maintenance/delete.js';
import { getMaintenance } from '../../../services/maintenance/get.js';
import { listMaintenance } from '../../../services/maintenance/list.js';
import { maintenanceCreateSchema, maintenancePatchSchema } from '../../../services/maintenance/schema.js';
import { updateMaintenance } from '../../../services/maintenance/update.js';
import { maintenanceViewSchema } from '../../../services/maintenance/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, organizationOf, readProblems, services, slugParam, writeProblems } from './route.js';

const Maintenance = maintenanceViewSchema.openapi('Maintenance');
const MaintenanceCreate = maintenanceCreateSchema.openapi('MaintenanceCreate');
const MaintenancePatch = maintenancePatchSchema.openapi('MaintenancePatch');
const pageParams = z.object({ slug: slugParam });
const params = z.object({ slug: slugParam, id: idParam('maintenance window', 'mnt_2b4d6f8h1j3k5m7n') });
const tags = [TAGS.maintenance.name];
const notFound = { 404: problemResponse(404, 'No such page in your organization, or no such window on it.') };

export function maintenanceRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/maintenance',
      tags,
      summary: "List a page's maintenance windows",
      security: security.apiKey,
      middleware: guards.read,
      request: { params: pageParams },
      responses: {
        200: jsonResponse(z.object({ maintenance: z.array(Maintenance) }), 'The windows, soonest first.', RATE_LIMIT_HEADERS),
        ...readProblems,
        ...notFound,
      },
    }),
    async (c) => c.json({ maintenance: await listMaintenance(services(c).db, organizationOf(c), c.req.valid('param').slug) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/pages/{slug}/maintenance',
      tags,
      summary: 'Schedule maintenance',
      description: 'Also allowed on pages managed by warden.yaml.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params: pageParams, body: jsonBody(MaintenanceCreate) },
      responses: { 201: jsonResponse(Maintenance, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => c.json(await inBody(createMaintenance(services(c), organizationOf(c), c.req.valid('param').slug, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/maintenance/{id}',
      tags,
      summary: 'Read a maintenance window',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: { 200: jsonResponse(Maintenance, 'The window.', RATE_LIMIT_HEADERS), ...readProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await getMaintenance(services(c).db, organizationOf(c), slug, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/pages/{slug}/maintenance/{id}',
      tags,
      summary: 'Change a maintenance window',
      description: 'Changes the fields given; the key stays. Windows managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(MaintenancePatch) },
      responses: { 200: jsonResponse(Maintenance, 'The changed window.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await inBody(updateMaintenance(services(c), organizationOf(c), slug, id, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/pages/{slug}/maintenance/{id}',
      tags,
      summary: 'Delete a maintenance window',
      description: 'Windows managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 204: { description: 'Deleted.' }, ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      await deleteMaintenance(services(c), organizationOf(c), slug, id);
      return c.body(null, 204);
    },
  );
}
