// The signed-in user's sessions: GET /api/v1/auth/sessions and DELETE /api/v1/auth/sessions/{id}.
import { z } from '@hono/zod-openapi';
import { listSessions, revokeSession, sessionViewSchema } from '../../../services/accounts/sessions.js';
import type { App } from '../../env.js';
import { clearSessionCookie } from '../../session-cookie.js';
import { idParam } from '../api/operation.js';
import { authContext, authOperation, signedIn } from './operation.js';

const SessionList = z
  .object({ sessions: z.array(sessionViewSchema.openapi('AccountSession')) })
  .openapi('AccountSessionList');

export function sessionRoutes(app: App): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/auth/sessions',
    access: 'session',
    summary: 'Your sessions',
    description: 'Every browser signed in as you, most recently used first; `current` marks this one.',
    ok: { status: 200, schema: SessionList, description: 'The sessions.' },
    run: async (c) => {
      const { user, session } = signedIn(c);
      return { sessions: await listSessions(authContext(c), { userId: user.id, currentSessionId: session.id }) };
    },
  });

  authOperation(app, {
    method: 'delete',
    path: '/api/v1/auth/sessions/{id}',
    access: 'session',
    summary: 'End one of your sessions',
    description: 'The browser holding it is signed out at once. Ending this very session also clears its cookie.',
    params: z.object({ id: idParam('session', 'ses_4q6s8v1x3z5b7d9f') }),
    ok: { status: 204, description: 'Ended.' },
    errors: { 404: 'You have no session with this id.' },
    run: async (c, { id }) => {
      const { user, session } = signedIn(c);
      await revokeSession(authContext(c), { userId: user.id, id });
      if (id === session.id) clearSessionCookie(c);
    },
  });
}
