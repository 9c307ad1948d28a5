// /api/v1/api-keys: the organization's API keys (write keys only); creating one returns it once, deleting revokes it.
import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey } from '../../../services/api-keys/create.js';
import { listApiKeys } from '../../../services/api-keys/list.js';
import { revokeApiKey } from '../../../services/api-keys/revoke.js';
import { apiKeyCreateSchema } from '../../../services/api-keys/schema.js';
import { apiKeyView, apiKeyViewSchema } from '../../../services/api-keys/view.js';
import type { App } from '../../app.js';
import { jsonBody, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { type ApiGuards, idParam, inBody, organizationOf, services, writeProblems } from './route.js';

const ApiKey = apiKeyViewSchema.openapi('ApiKey');
const ApiKeyWithSecret = apiKeyViewSchema
  .extend({ key: z.string().describe('The API key (wdn_…), shown this once.') })
  .openapi('ApiKeyWithSecret');
const ApiKeyCreate = apiKeyCreateSchema.openapi('ApiKeyCreate');
const tags = [TAGS.apiKeys.name];

export function apiKeyRoutes(app: App, guards: ApiGuards): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/api-keys',
      tags,
      summary: 'List API keys',
      description: 'Prefixes, scopes and last use; revoked keys included. Needs a write key: keys are credentials.',
      security: security.apiKey,
      middleware: guards.write,
      responses: { 200: jsonResponse(z.object({ apiKeys: z.array(ApiKey) }), 'The keys, oldest first.', RATE_LIMIT_HEADERS), ...writeProblems },
    }),
    async (c) => c.json({ apiKeys: await listApiKeys(services(c).db, organizationOf(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/api-keys',
      tags,
      summary: 'Create an API key',
      description: 'Returns the key this once; only its hash is kept.',
      security: security.apiKey,
      middleware: guards.write,
      request: { body: jsonBody(ApiKeyCreate) },
      responses: { 201: jsonResponse(ApiKeyWithSecret, 'Created.', RATE_LIMIT_HEADERS), ...writeProblems },
    }),
    async (c) => {
      const { db, clock } = services(c);
      const input = c.req.valid('json');
      const { apiKey, secret } = await inBody(createApiKey(db, { organizationId: organizationOf(c), ...input }, clock.now()));
      return c.json({ ...apiKeyView(apiKey), key: secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/api-keys/{id}',
      tags,
      summary: 'Revoke an API key',
      description: 'The key stops working at once (the key making the request may revoke itself).',
      security: security.apiKey,
      middleware: guards.write,
      request: { params: z.object({ id: idParam('API key', 'key_4q6s8v1x3z5b7d9f') }) },
      responses: {
        204: { description: 'Revoked.' },
        ...writeProblems,
        404: problemResponse(404, 'No active key with this id in your organization.'),
      },
    }),
    async (c) => {
      const { db, clock } = services(c);
      await revokeApiKey(db, organizationOf(c), c.req.valid('param').id, clock.now());
      return c.body(null, 204);
    },
  );
}
