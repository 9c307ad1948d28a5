// The TOTP second factor of the signed-in user: POST/DELETE /api/v1/auth/totp, POST /api/v1/auth/totp/confirm and
// POST /api/v1/auth/recovery-codes. Secrets and recovery codes are answered once; only their hashes (codes) are kept.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { proofInput } from '../../../services/accounts/fresh-proof.js';
import type { SignInAttempts } from '../../../services/accounts/sign-in-attempts.js';
import {
  beginTotp,
  confirmTotp,
  disableTotp,
  regenerateRecoveryCodes,
  totpConfirmInput,
} from '../../../services/accounts/totp.js';
import type { App } from '../../env.js';
import { authContext, authOperation, provenRequest, signedIn } from './operation.js';

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
      .describe(
        `${ACCOUNT_LIMITS.recoveryCodes} one-time codes (\`abcd-efgh-jkmn-pqrs\`), each signing in once in place of a TOTP code. Shown this once.`,
      ),
  })
  .openapi('RecoveryCodes');

/** The body of what needs a fresh proof: the password or a code, or nothing within a few minutes of one. */
export const FreshProof = proofInput.openapi('FreshProof');

const minutes = Math.round(ACCOUNT_LIMITS.freshProofMs / 60_000);
/** What every operation needing a fresh proof says of it. */
export const FRESH_PROOF = `Needs a fresh proof: signing in, the password or a code in the last ${minutes} minutes, or \`password\` (or \`code\`) in the body — a wrong one counts like a wrong sign-in.`;
export const REAUTHENTICATE = `No fresh proof (\`…/reauthentication-required\`): send the password or a code with the request.`;
export const TOO_MANY = 'Too many wrong passwords or codes; retry after Retry-After seconds.';

export function totpRoutes(app: App, attempts: SignInAttempts): void {
  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/totp',
    access: 'session',
    summary: 'Begin turning TOTP on',
    description: `A new secret for an authenticator app (replacing one not confirmed yet). Nothing changes at sign-in until it is confirmed. ${FRESH_PROOF}`,
    body: FreshProof,
    bodyOptional: true,
    ok: { status: 200, schema: TotpEnrolment, description: 'The secret and its URI.' },
    errors: { 403: REAUTHENTICATE, 409: 'TOTP is on already.', 429: TOO_MANY },
    run: (c, body) => beginTotp(authContext(c), { ...body, ...provenRequest(c, attempts) }),
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
    description: `Deletes the secret and the recovery codes. ${FRESH_PROOF}`,
    body: FreshProof,
    bodyOptional: true,
    ok: { status: 204, description: 'TOTP is off.' },
    errors: { 403: REAUTHENTICATE, 409: 'TOTP is not on.', 429: TOO_MANY },
    run: (c, body) => disableTotp(authContext(c), { ...body, ...provenRequest(c, attempts) }),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/recovery-codes',
    access: 'session',
    summary: 'New recovery codes',
    description: `Replaces every recovery code (the old ones stop working); shown this once. ${FRESH_PROOF}`,
    body: FreshProof,
    bodyOptional: true,
    ok: { status: 200, schema: RecoveryCodes, description: 'The new codes.' },
    errors: { 403: REAUTHENTICATE, 409: 'TOTP is not on.', 429: TOO_MANY },
    run: (c, body) => regenerateRecoveryCodes(authContext(c), { ...body, ...provenRequest(c, attempts) }),
  });
}
