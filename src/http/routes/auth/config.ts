// GET /api/v1/auth/config: what the sign-in page needs to know before anyone is signed in.
import { z } from '@hono/zod-openapi';
import { SIGNUP_MODES } from '../../../domain/account.js';
import { setupRequired } from '../../../services/accounts/setup.js';
import type { App } from '../../env.js';
import { isLoopbackHost } from '../../local-setup.js';
import { authContext, authOperation } from './operation.js';

const AuthConfig = z
  .object({
    setupRequired: z
      .boolean()
      .describe(
        'No account exists yet: /app opens the setup screen, where the setup code from the server’s start-up log (or `warden setup-code`) creates the first owner.',
      ),
    localSetup: z
      .string()
      .nullable()
      .describe(
        'While setup is pending and the dashboard was opened by a loopback address (localhost, 127.0.0.1, [::1]): where the setup screen, on the server’s own machine, gets a setup code by itself (POST; WARDEN_LOCAL_SETUP, docs/accounts.md#first-run). Null otherwise.',
      ),
    signup: z.enum(SIGNUP_MODES).describe('WARDEN_SIGNUP: closed, invite (with an invitation link only) or open.'),
    oidc: z
      .object({ name: z.string() })
      .nullable()
      .describe('The OpenID Connect provider to offer (its button label); null when none is set.'),
    smtp: z.boolean().describe('Whether the server can send mail (invitations are mailed as well as shown).'),
  })
  .openapi('AuthConfig');

export function authConfigRoutes(app: App): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/auth/config',
    access: 'public',
    summary: 'How to sign in here',
    description:
      'Public: whether first-run setup is pending, the sign-up mode, the OpenID Connect provider and whether mail can be sent.',
    ok: { status: 200, schema: AuthConfig, description: 'The sign-in options.' },
    run: async (c) => {
      const { accounts, smtp, localSetupUrl } = c.var.deps;
      const pending = await setupRequired(authContext(c));
      return {
        setupRequired: pending,
        localSetup: pending && isLoopbackHost(c.req.header('host')) ? (localSetupUrl?.() ?? null) : null,
        signup: accounts?.signup ?? 'invite',
        oidc: accounts?.oidc ? { name: accounts.oidc.name } : null,
        smtp: smtp !== undefined,
      };
    },
  });
}
