// POST /api/push/{token} with a JSON body: a heartbeat with metrics (players, maxPlayers, tps) and extra data (docs/push.md).
import { createRoute } from '@hono/zod-openapi';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { pushBodySchema } from '../../../services/push/payload.js';
import type { PushContext } from '../../../services/push/record.js';
import type { App } from '../../env.js';
import { readJsonBody, withBodyReadByHandler } from '../../middleware/json-body.js';
import { recordPush } from './record-push.js';
import { answerPush, pushResponses, pushRouteBase, pushTokenParamSchema } from './responses.js';

export const postPushRoute = createRoute({
  method: 'post',
  ...pushRouteBase,
  summary: 'Record a heartbeat with metrics',
  description: `Like GET, with a JSON body of at most ${PUSH_LIMITS.bodyBytes} bytes (any content type is read as JSON; an empty body is an up ping). Players, max players and TPS show on status pages; extra properties are kept in the check's data.`,
  request: {
    params: pushTokenParamSchema,
    body: { required: false, content: { 'application/json': { schema: pushBodySchema } } },
  },
  responses: pushResponses,
});

export function postPush(app: App, push: PushContext): void {
  app.openapi(withBodyReadByHandler(app, postPushRoute), async (c) => {
    const token = c.req.valid('param').token;
    return answerPush(
      c,
      readJsonBody(c, PUSH_LIMITS.bodyBytes).then((body) => recordPush(push, token, { body })),
    ) as never;
  });
}
