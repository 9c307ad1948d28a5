// /api/v1/pages/{slug}/components: what a page lists, each optionally following a monitor.
import { createRoute, z } from '@hono/zod-openapi';
import { createComponent } from '../../../services/components/create.js';
import { deleteComponent } from '../../../services/components/delete.js';
import { getComponent } from '../../../services/components/get.js';
import { listComponents } from '../../../services/components/list.js';
import { componentCreateSchema, componentPatchSchema } from '../../../services/components/schema.js';
import { updateComponent } from '../../../services/components/update.js';
import { componentViewSchema } from '../../../services/components/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, organizationOf, readProblems, services, slugParam, writeProblems } from './route.js';

const Component = componentViewSchema.openapi('Component');
const ComponentCreate = componentCreateSchema.openapi('ComponentCreate');
const ComponentPatch = componentPatchSchema.openapi('ComponentPatch');
const pageParams = z.object({ slug: slugParam });
const params = z.object({ slug: slugParam, id: idParam('component', 'cmp_7n2p4r6t8v1w3x5y') });
const tags = [TAGS.components.name];
const notFound = { 404: problemResponse(404, 'No such page in your organization, or no such component on it.') };

export function componentRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/components',
      tags,
      summary: "List a page's components",
      security: security.apiKey,
      middleware: guards.read,
      request: { params: pageParams },
      responses: {
        200: jsonResponse(z.object({ components: z.array(Component) }), 'The components, in page order.', RATE_LIMIT_HEADERS),
        ...readProblems,
        ...notFound,
      },
    }),
    async (c) => c.json({ components: await listComponents(services(c).db, organizationOf(c), c.req.valid('param').slug) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/pages/{slug}/components',
      tags,
      summary: 'Add a component',
      description: 'Also allowed on pages managed by warden.yaml: the file leaves components created through the API alone.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params: pageParams, body: jsonBody(ComponentCreate) },
      responses: { 201: jsonResponse(Component, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => c.json(await inBody(createComponent(services(c), organizationOf(c), c.req.valid('param').slug, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}/components/{id}',
      tags,
      summary: 'Read a component',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: { 200: jsonResponse(Component, 'The component.', RATE_LIMIT_HEADERS), ...readProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await getComponent(services(c).db, organizationOf(c), slug, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/pages/{slug}/components/{id}',
      tags,
      summary: 'Change a component',
      description: 'Changes the fields given; the key stays. Components managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(ComponentPatch) },
      responses: { 200: jsonResponse(Component, 'The changed component.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      return c.json(await inBody(updateComponent(services(c), organizationOf(c), slug, id, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/pages/{slug}/components/{id}',
      tags,
      summary: 'Delete a component',
      description: 'Components managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 204: { description: 'Deleted.' }, ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { slug, id } = c.req.valid('param');
      await deleteComponent(services(c), organizationOf(c), slug, id);
      return c.body(null, 204);
    },
  );
}
