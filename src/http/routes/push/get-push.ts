// GET /api/push/{token}?status=up|down&msg=…&latency=…: a heartbeat from anything that can fetch a URL (cron, curl, uptime tools).
import { createRoute } from '@hono/zod-openapi';
import { pushQuerySchema, resultFromQuery } from '../../../services/push/payload.js';
import { recordHeartbeat } from '../../../services/push/record.js';
import type { App } from '../../app.js';
import { security, TAGS } from '../../openapi.js';
import { answerPush, type PushServices, pushResponses, pushTokenParamSchema } from './responses.js';

export const getPushRoute = createRoute({
  method: 'get',
  path: '/api/push/{token}',
  tags: [TAGS.push.name],
  security: security.none,
  summary: 'Record a heartbeat',
  description: 'Records a ping for the heartbeat monitor whose push token is in the path. Answers 200 once the check is stored.',
  request: { params: pushTokenParamSchema, query: pushQuerySchema },
  responses: pushResponses,
});

export function getPush(app: App, services: PushServices): void {
  app.openapi(getPushRoute, async (c) => {
    const { token } = c.req.valid('param');
    const result = resultFromQuery(c.req.valid('query'));
    return answerPush(c, () => recordHeartbeat(services(c.get('deps')), token, result));
  });
}
