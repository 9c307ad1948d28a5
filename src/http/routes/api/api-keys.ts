// /api/v1/api-keys: the organization's API keys (write keys only); creating one returns it once, deleting revokes it.
import { z } from '@hono/zod-openapi';
import { createApiKey } from '../../../services/api-keys/create.js';
import { listApiKeys, revokeApiKey } from '../../../services/api-keys/list.js';
import { apiKeyCreateSchema } from '../../../services/api-keys/schema.js';
import { apiKeyView, apiKeyViewSchema } from '../../../services/api-keys/view.js';
import { apiKeyLabel } from '../../../services/audit/labels.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, listOperation } from './operation.js';

const ApiKey = apiKeyViewSchema.openapi('ApiKey');
const ApiKeyWithSecret = apiKeyViewSchema
  .extend({ key: z.string().describe('The API key (wdn_…), shown this once.') })
  .openapi('ApiKeyWithSecret');

export function apiKeyRoutes(app: App, guards: ApiGuards): void {
  // Every operation needs an admin (or a write key): keys are credentials.
  const op = { tag: 'apiKeys', path: '/api/v1/api-keys', role: 'admin' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List API keys',
    description: 'Prefixes, scopes and last use; revoked keys included. Keys are credentials.',
    key: 'apiKeys',
    item: ApiKey,
    scope: 'read',
    ok: 'The keys, oldest first.',
    run: listApiKeys,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    scope: 'write',
    summary: 'Create an API key',
    description: 'Returns the key this once; only its hash is kept.',
    body: apiKeyCreateSchema.openapi('ApiKeyCreate'),
    ok: { status: 201, schema: ApiKeyWithSecret, description: 'Created.' },
    run: createApiKey,
    respond: ({ apiKey, secret }) => ({ ...apiKeyView(apiKey), key: secret }),
    audit: {
      action: 'api-key.create',
      object: (_input, { apiKey }) => ({ id: apiKey.id, label: apiKey.name }),
      detail: ({ scope }) => ({ fields: ['name', 'scope'], scope }),
    },
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/api-keys/{id}',
    method: 'delete',
    scope: 'write',
    summary: 'Revoke an API key',
    description: 'The key stops working at once (the key making the request may revoke itself).',
    params: z.object({ id: idParam('API key', 'key_4q6s8v1x3z5b7d9f') }),
    notFound: 'No active key with this id in your organization.',
    ok: { status: 204, description: 'Revoked.' },
    run: revokeApiKey,
    audit: { action: 'api-key.revoke', object: ({ id }) => ({ id, label: null }), before: apiKeyLabel },
  });
}
