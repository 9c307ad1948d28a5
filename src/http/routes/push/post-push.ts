// POST /api/push/{token} with a JSON body (spec 2.3): a heartbeat with metrics (players, maxPlayers, tps) and extra data.
import { createRoute } from '@hono/zod-openapi';
import { ValidationError } from '../../../domain/errors.js';
import { formatIssuePath } from '../../../domain/issue-path.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { pushBodySchema, resultFromBody } from '../../../services/push/payload.js';
import { recordHeartbeat } from '../../../services/push/record.js';
import type { App } from '../../app.js';
import { readJsonBody, tooLargeMessage, withBodyReadByHandler } from '../../middleware/json-body.js';
import { security, TAGS } from '../../openapi.js';
import { answerPush, type PushServices, pushResponses, pushTokenParamSchema } from './responses.js';

export const postPushRoute = createRoute({
  method: 'post',
  path: '/api/push/{token}',
  tags: [TAGS.push.name],
  security: security.none,
  summary: 'Record a heartbeat with metrics',
  description: `Like GET, with a JSON body of at most ${PUSH_LIMITS.bodyBytes} bytes (any content type is read as JSON; an empty body is an up ping). Players, max players and TPS show on status pages; extra properties are kept in the check's data.`,
  request: {
    params: pushTokenParamSchema,
    body: { required: false, content: { 'application/json': { schema: pushBodySchema } } },
  },
  responses: pushResponses,
});

export function postPush(app: App, services: PushServices): void {
  app.openapi(withBodyReadByHandler(app, postPushRoute), async (c) => {
    const { token } = c.req.valid('param');
    const body = await readJsonBody(c, PUSH_LIMITS.bodyBytes);
    if (body.kind === 'too-large') throw new ValidationError([{ path: 'body', message: tooLargeMessage(body.maxBytes) }], 'The body is too large.');
    const parsed = pushBodySchema.safeParse(body.kind === 'json' ? body.value : {});
    if (!parsed.success)
      throw new ValidationError(parsed.error.issues.map((i) => ({ path: formatIssuePath(['body', ...i.path]), message: i.message })));
    const result = resultFromBody(parsed.data);
    return answerPush(c, () => recordHeartbeat(services(c.get('deps')), token, result));
  });
}
