// GET /api/push/{token}?status=up|down&msg=…&latency=…: a heartbeat from anything that can fetch a URL (cron, curl, uptime tools).
import { createRoute } from '@hono/zod-openapi';
import { pushQuerySchema } from '../../../services/push/payload.js';
import type { PushContext } from '../../../services/push/record.js';
import type { App } from '../../env.js';
import { recordPush } from './record-push.js';
import { answerPush, pushResponses, pushRouteBase, pushTokenParamSchema } from './responses.js';

export const getPushRoute = createRoute({
  method: 'get',
  ...pushRouteBase,
  summary: 'Record a heartbeat',
  description:
    'Records a ping for the heartbeat monitor whose push token is in the path. Answers 200 once the check is stored.',
  request: { params: pushTokenParamSchema, query: pushQuerySchema },
  responses: pushResponses,
});

export function getPush(app: App, push: PushContext): void {
  app.openapi(
    getPushRoute,
    (c) => answerPush(c, recordPush(push, c.req.valid('param').token, { query: c.req.valid('query') })) as never,
  );
}
