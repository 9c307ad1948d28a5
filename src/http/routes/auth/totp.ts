// The TOTP second factor of the signed-in user: POST/DELETE /api/v1/auth/totp, POST /api/v1/auth/totp/confirm and
// POST /api/v1/auth/recovery-codes. Secrets and recovery codes are answered once; only their hashes (codes) are kept.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { type SignInAttempts, signInKeys } from '../../../services/accounts/sign-in-attempts.js';
import { beginTotp, confirmTotp, disableTotp, regenerateRecoveryCodes, totpConfirmInput, totpDisableInput } from '../../../services/accounts/totp.js';
import type { App } from '../../app.js';
import { authContext, authOperation, clientOf, signedIn } from './operation.js';

const TotpEnrolment = z
  .object({
    secret: z.string().describe('The secret (base32), for typing into an app by hand.'),
    uri: z.string().describe('The otpauth:// URI (issuer Warden, your email) to show as a QR code.'),
  })
  .openapi('TotpEnrolment');

const RecoveryCodes = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .describe(`${ACCOUNT_LIMITS.recoveryCodes} one-time codes (\`abcd-efgh-jkmn-pqrs\`), each signing in once in place of a TOTP code. Shown this once.`),
  })
  .openapi('RecoveryCodes');

export function totpRoutes(app: App, attempts: SignInAttempts): void {
  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/totp',
    access: 'session',
    summary: 'Begin turning TOTP on',
    description: 'A new secret for an authenticator app (replacing one not confirmed yet). Nothing changes at sign-in until it is confirmed.',
    ok: { status: 200, schema: TotpEnrolment, description: 'The secret and its URI.' },
    errors: { 409: 'TOTP is on already.' },
    run: (c) => beginTotp(authContext(c), { userId: signedIn(c).user.id }),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/totp/confirm',
    access: 'session',
    summary: 'Confirm TOTP with a code',
    description: 'A code of the new secret turns TOTP on; the answer holds the recovery codes, shown this once.',
    body: totpConfirmInput.openapi('TotpConfirm'),
    ok: { status: 200, schema: RecoveryCodes, description: 'TOTP is on.' },
    errors: { 409: 'No enrolment was begun, or TOTP is on already.' },
    run: (c, body) => confirmTotp(authContext(c), { ...body, userId: signedIn(c).user.id }),
  });

  authOperation(app, {
    method: 'delete',
    path: '/api/v1/auth/totp',
    access: 'session',
    summary: 'Turn TOTP off',
    description: 'Needs the password, or a current TOTP code or unused recovery code. Deletes the secret and the recovery codes. Wrong ones count like wrong sign-ins.',
    body: totpDisableInput.openapi('TotpDisable'),
    ok: { status: 204, description: 'TOTP is off.' },
    errors: { 409: 'TOTP is not on.', 429: 'Too many wrong passwords or codes; retry after Retry-After seconds.' },
    run: async (c, body) => {
      const { user } = signedIn(c);
      const keys = [signInKeys.user(user.id), signInKeys.client(clientOf(c).address)];
      await attempts.guard(keys, () => c.var.deps.clock.now(), () => disableTotp(authContext(c), { ...body, userId: user.id }));
    },
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/recovery-codes',
    access: 'session',
    summary: 'New recovery codes',
    description: 'Replaces every recovery code (the old ones stop working); shown this once.',
    ok: { status: 200, schema: RecoveryCodes, description: 'The new codes.' },
    errors: { 409: 'TOTP is not on.' },
    run: (c) => regenerateRecoveryCodes(authContext(c), { userId: signedIn(c).user.id }),
  });
}
