// /api/v1/pages/{slug}/incidents and /api/v1/incidents/{id}/updates: incidents and their timelines.
import { createRoute, z } from '@hono/zod-openapi';
import { addIncidentUpdate } from '../../../services/incidents/add-update.js';
import { createIncident } from '../../../services/incidents/create.js';
import { deleteIncident } from '../../../services/incidents/delete.js';
import { getIncident } from '../../../services/incidents/get.js';
import { listIncidents } from '../../../services/incidents/list.js';
import { incidentCreateSchema, incidentListQuerySchema, incidentPatchSchema, incidentUpdateCreateSchema } from '../../../services/incidents/schema.js';
import { updateIncident } from '../../../services/incidents/update.js';
import { incidentViewSchema } from '../../../services/incidents/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, organizationOf, readProblems, services, slugParam, writeProblems } from './route.js';

const Incident = incidentViewSchema.openapi('Incident');
const IncidentCreate = incidentCreateSchema.openapi('IncidentCreate');
const IncidentPatch = incidentPatchSchema.openapi('IncidentPatch');
const IncidentUpdateCreate = incidentUpdateCreateSchema.openapi('IncidentUpdateCreate');
const incidentId = idParam('incident', 'inc_5d7f9h2j4k6m8n1p');
const pageParams = z.object({ slug: slugParam });
const params = z.object({ slug: slugParam, id: incidentId });
const tags = [TAGS.incidents.name];
const notFound = { 404: problemResponse(404, 'No such page in your organization, or no such incident on it.') };

export function incidentRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/incidents',
      tags,
      summary: "List a page's incidents",
      security: security.apiKey,
      middleware: guards.read,
      request: { params: pageParams, query: incidentListQuerySchema },
      responses: {
        200: jsonResponse(z.object({ incidents: z.array(Incident) }), 'The incidents, newest first.', RATE_LIMIT_HEADERS),
        ...readProblems,
        ...notFound,
      },
    }),
    async (c) =>
      c.json({ incidents: await listIncidents(services(c).db, organizationOf(c), c.req.valid('param').slug, c.req.valid('query').limit) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/pages/{slug}/incidents',
      tags,
      summary: 'Open an incident',
      description: 'The message is the first entry of the timeline. Also allowed on pages managed by warden.yaml.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params: pageParams, body: jsonBody(IncidentCreate) },
      responses: { 201: jsonResponse(Incident, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => c.json(await inBody(createIncident(services(c), organizationOf(c), c.req.valid('param').slug, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/incidents/{id}',
      tags,
      summary: 'Read an incident',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: { 200: jsonResponse(Incident, 'The incident with its timeline.', RATE_LIMIT_HEADERS), ...readProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await getIncident(services(c).db, organizationOf(c), slug, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/pages/{slug}/incidents/{id}',
      tags,
      summary: 'Change an incident',
      description: 'Title, impact, start and affected components. The status moves by posting updates. Incidents managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(IncidentPatch) },
      responses: { 200: jsonResponse(Incident, 'The changed incident.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await inBody(updateIncident(services(c), organizationOf(c), slug, id, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/pages/{slug}/incidents/{id}',
      tags,
      summary: 'Delete an incident',
      description: 'Incidents managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 204: { description: 'Deleted.' }, ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      await deleteIncident(services(c), organizationOf(c), slug, id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/incidents/{id}/updates',
      tags,
      summary: 'Post an incident update',
      description:
        'Adds an entry to the timeline and sets the incident status (investigating → identified → monitoring → resolved); resolved closes the incident, another status reopens it. Impact and affected components may change with it.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params: z.object({ id: incidentId }), body: jsonBody(IncidentUpdateCreate) },
      responses: {
        201: jsonResponse(Incident, 'The incident with the new update.', RATE_LIMIT_HEADERS),
        ...writeProblems,
        404: problemResponse(404, 'No incident with this id in your organization.'),
      },
    }),
    async (c) => c.json(await inBody(addIncidentUpdate(services(c), organizationOf(c), c.req.valid('param').id, c.req.valid('json'))), 201),
  );
}
