// The signed-in user's own account: GET and PATCH /api/v1/auth/me, and POST /api/v1/auth/password.
import { changePassword, passwordChangeInput, profileInput, updateProfile } from '../../../services/accounts/profile.js';
import { type SignInAttempts, signInKeys } from '../../../services/accounts/sign-in-attempts.js';
import { describeAccount } from '../../../services/accounts/view.js';
import type { App } from '../../app.js';
import { authContext, authOperation, clientOf, signedIn } from './operation.js';
import { Account } from './sign-in.js';

export function meRoutes(app: App, attempts: SignInAttempts): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/auth/me',
    access: 'session',
    summary: 'The signed-in user',
    description: 'The user (never a secret) and the organizations they belong to, with their role in each. Send an organization’s key as `X-Warden-Organization` to the organization API to act for it.',
    ok: { status: 200, schema: Account, description: 'The user and their organizations, by name.' },
    run: (c) => describeAccount(authContext(c), { userId: signedIn(c).user.id }),
  });

  authOperation(app, {
    method: 'patch',
    path: '/api/v1/auth/me',
    access: 'session',
    summary: 'Change your name or email',
    description: 'The email is lower-cased and must be no other account’s.',
    body: profileInput.openapi('ProfileUpdate'),
    ok: { status: 200, schema: Account, description: 'The account as changed.' },
    errors: { 409: 'Another account uses this email address.' },
    run: (c, body) => updateProfile(authContext(c), { ...body, userId: signedIn(c).user.id }),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/password',
    access: 'session',
    summary: 'Change your password',
    description:
      'Needs the current password. Ends every other session of the user: this browser stays signed in. Wrong current passwords count like wrong sign-ins (429 past the limit).',
    body: passwordChangeInput.openapi('PasswordChange'),
    ok: { status: 204, description: 'Changed; the other sessions ended.' },
    errors: { 409: 'The account has no password (it signs in with OpenID Connect).', 429: 'Too many wrong passwords; retry after Retry-After seconds.' },
    run: async (c, body) => {
      const { user, session } = signedIn(c);
      const keys = [signInKeys.user(user.id), signInKeys.client(clientOf(c).address)];
      await attempts.guard(keys, () => c.var.deps.clock.now(), () => changePassword(authContext(c), { ...body, userId: user.id, sessionId: session.id }));
    },
  });
}
