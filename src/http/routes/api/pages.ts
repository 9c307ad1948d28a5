// /api/v1/pages: list, read, create, change and delete status pages (by slug).
import { createRoute, z } from '@hono/zod-openapi';
import { createPage } from '../../../services/pages/create.js';
import { deletePage } from '../../../services/pages/delete.js';
import { getPage } from '../../../services/pages/get.js';
import { listPages } from '../../../services/pages/list.js';
import { pageCreateSchema, pagePatchSchema } from '../../../services/pages/schema.js';
import { updatePage } from '../../../services/pages/update.js';
import { pageViewSchema } from '../../../services/pages/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, inBody, listProblems, organizationOf, readProblems, services, slugParam, writeProblems } from './route.js';

const Page = pageViewSchema.openapi('Page');
const PageCreate = pageCreateSchema.openapi('PageCreate');
const PagePatch = pagePatchSchema.openapi('PagePatch');
const params = z.object({ slug: slugParam });
const tags = [TAGS.pages.name];
const notFound = { 404: problemResponse(404, 'No page with this slug in your organization.') };

export function pageRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages',
      tags,
      summary: 'List pages',
      security: security.apiKey,
      middleware: guards.read,
      responses: { 200: jsonResponse(z.object({ pages: z.array(Page) }), 'The pages, by slug.', RATE_LIMIT_HEADERS), ...listProblems },
    }),
    async (c) => c.json({ pages: await listPages(services(c).db, organizationOf(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/pages',
      tags,
      summary: 'Create a page',
      description: 'Slugs are unique across the server (they are public addresses). A password is stored hashed and never returned.',
      security: security.apiKey,
      middleware: guards.write,
      request: { body: jsonBody(PageCreate) },
      responses: { 201: jsonResponse(Page, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems },
    }),
    async (c) => c.json(await inBody(createPage(services(c), organizationOf(c), c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/pages/{slug}',
      tags,
      summary: 'Read a page',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: { 200: jsonResponse(Page, 'The page.', RATE_LIMIT_HEADERS), ...readProblems, ...notFound },
    }),
    async (c) => c.json(await getPage(services(c).db, organizationOf(c), c.req.valid('param').slug), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/pages/{slug}',
      tags,
      summary: 'Change a page',
      description: 'Changes the fields given; the slug stays. Pages managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(PagePatch) },
      responses: { 200: jsonResponse(Page, 'The changed page.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => c.json(await inBody(updatePage(services(c), organizationOf(c), c.req.valid('param').slug, c.req.valid('json'))), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/pages/{slug}',
      tags,
      summary: 'Delete a page',
      description: 'Deletes the page with its components, incidents and maintenance. Pages managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 204: { description: 'Deleted.' }, ...writeProblems, ...notFound },
    }),
    async (c) => {
      await deletePage(services(c), organizationOf(c), c.req.valid('param').slug);
      return c.body(null, 204);
    },
  );
}
