// The accounts API under /api/v1/auth (docs/accounts.md): signing in and out, first-run setup, sign-up, invitations
// from the invited side, and the signed-in user's own account, sessions and second factor. Session cookie only.
import { createSignInAttempts, type SignInAttempts } from '../../../services/accounts/sign-in-attempts.js';
import { createSignupAttempts } from '../../../services/accounts/signup-attempts.js';
import type { App, AppDeps } from '../../env.js';
import { authConfigRoutes } from './config.js';
import { invitationRoutes } from './invitations.js';
import { meRoutes } from './me.js';
import { sessionRoutes } from './sessions.js';
import { signInRoutes } from './sign-in.js';
import { totpRoutes } from './totp.js';

/**
 * `deps.signInAttempts` counts wrong guesses and `deps.signupAttempts` sign-ups (across a cluster when it runs); one of
 * this app's own each when absent.
 */
export function authRoutes(app: App, deps: Pick<AppDeps, 'security' | 'signInAttempts' | 'signupAttempts'>): void {
  const attempts: SignInAttempts =
    deps.signInAttempts ?? createSignInAttempts({ perMinute: deps.security.loginAttemptsPerMinute });
  authConfigRoutes(app);
  signInRoutes(app, attempts, deps.signupAttempts ?? createSignupAttempts());
  meRoutes(app, attempts);
  sessionRoutes(app);
  totpRoutes(app, attempts);
  invitationRoutes(app);
}
