// GET /api/relay/config: the relay's identity and assigned monitors (secrets included), 304 when the ETag still matches.
import { createRoute } from '@hono/zod-openapi';
import { etagMatches } from '../../../domain/etag.js';
import { RELAY_LIMITS, relayConfigSchema } from '../../../relay/protocol.js';
import type { ServiceContext } from '../../../services/context.js';
import { relayConfig } from '../../../services/relays/config.js';
import type { App } from '../../env.js';
import { relayAuth } from '../../middleware/relay-auth.js';
import { problemResponse, security, TAGS } from '../../openapi.js';

export const getConfigRoute = createRoute({
  method: 'get',
  path: '/api/relay/config',
  tags: [TAGS.relay.name],
  summary: "The relay's monitors",
  description: `The relay polls this every ${RELAY_LIMITS.configPollSec} s with If-None-Match; it gets 304 while nothing changed.`,
  security: security.relayToken,
  middleware: [relayAuth()] as const,
  responses: {
    200: {
      description: 'The relay and its enabled monitors, with an ETag.',
      headers: { ETag: { schema: { type: 'string' }, description: 'Send it back in If-None-Match.' } },
      content: { 'application/json': { schema: relayConfigSchema } },
    },
    304: { description: 'Unchanged since the ETag sent in If-None-Match.' },
    401: problemResponse(401, 'Missing, unknown or revoked relay token.'),
  },
});

export function getConfig(app: App, ctx: ServiceContext): void {
  app.openapi(getConfigRoute, async (c) => {
    const document = await relayConfig(ctx, { relay: c.get('relay') });
    const headers = { etag: document.etag, 'cache-control': 'no-store' };
    if (etagMatches(c.req.header('if-none-match'), document.etag)) return c.body(null, 304, headers);
    return c.body(document.body, 200, { ...headers, 'content-type': 'application/json' }) as never;
  });
}
