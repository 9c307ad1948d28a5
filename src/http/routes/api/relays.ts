// /api/v1/relays: relay agents; creating one (or asking for a new token) returns its token once.
import { createRoute, z } from '@hono/zod-openapi';
import { createRelay } from '../../../services/relays/create.js';
import { deleteRelay } from '../../../services/relays/delete.js';
import { getRelay } from '../../../services/relays/get.js';
import { listRelays } from '../../../services/relays/list.js';
import { rotateRelayToken } from '../../../services/relays/rotate-token.js';
import { relayCreateSchema, relayPatchSchema } from '../../../services/relays/schema.js';
import { updateRelay } from '../../../services/relays/update.js';
import { relayViewSchema } from '../../../services/relays/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, listProblems, organizationOf, readProblems, services, writeProblems } from './route.js';

const Relay = relayViewSchema.openapi('Relay');
const RelayWithToken = relayViewSchema
  .extend({ token: z.string().describe('The relay token (wdr_…), shown this once: give it to the relay agent.') })
  .openapi('RelayWithToken');
const RelayCreate = relayCreateSchema.openapi('RelayCreate');
const RelayPatch = relayPatchSchema.openapi('RelayPatch');
const params = z.object({ id: idParam('relay', 'rly_8d2f6h1j3k5m7n9p') });
const tags = [TAGS.relays.name];
const notFound = { 404: problemResponse(404, 'No relay with this id in your organization.') };

export function relayApiRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/relays',
      tags,
      summary: 'List relays',
      security: security.apiKey,
      middleware: guards.read,
      responses: { 200: jsonResponse(z.object({ relays: z.array(Relay) }), 'The relays, by key.', RATE_LIMIT_HEADERS), ...listProblems },
    }),
    async (c) => c.json({ relays: await listRelays(services(c).db, organizationOf(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/relays',
      tags,
      summary: 'Create a relay',
      description: 'Returns the relay token this once; only its hash is kept.',
      security: security.apiKey,
      middleware: guards.write,
      request: { body: jsonBody(RelayCreate) },
      responses: { 201: jsonResponse(RelayWithToken, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems },
    }),
    async (c) => {
      const { relay, token } = await inBody(createRelay(services(c), organizationOf(c), c.req.valid('json')));
      return c.json({ ...relay, token }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/relays/{id}',
      tags,
      summary: 'Read a relay',
      security: security.apiKey,
      middleware: guards.read,
      request: { params },
      responses: { 200: jsonResponse(Relay, 'The relay.', RATE_LIMIT_HEADERS), ...readProblems, ...notFound },
    }),
    async (c) => c.json(await getRelay(services(c).db, organizationOf(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/v1/relays/{id}',
      tags,
      summary: 'Rename a relay',
      description: 'The key stays. Relays managed by warden.yaml answer 409.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params, body: jsonBody(RelayPatch) },
      responses: { 200: jsonResponse(Relay, 'The changed relay.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => c.json(await inBody(updateRelay(services(c), organizationOf(c), c.req.valid('param').id, c.req.valid('json'))), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/relays/{id}',
      tags,
      summary: 'Delete a relay',
      description: 'A relay that still runs monitors answers 409, as do relays managed by warden.yaml. Its token stops working at once.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 204: { description: 'Deleted.' }, ...writeProblems, ...notFound },
    }),
    async (c) => {
      await deleteRelay(services(c), organizationOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/relays/{id}/token',
      tags,
      summary: 'Issue a new relay token',
      description: 'Returns a new token this once; the previous one stops working at once.',
      security: security.apiKey,
      middleware: guards.write,
      request: { params },
      responses: { 200: jsonResponse(RelayWithToken, 'The relay and its new token.', RATE_LIMIT_HEADERS), ...writeProblems, ...notFound },
    }),
    async (c) => {
      const { relay, token } = await rotateRelayToken(services(c), organizationOf(c), c.req.valid('param').id);
      return c.json({ ...relay, token }, 200);
    },
  );
}
