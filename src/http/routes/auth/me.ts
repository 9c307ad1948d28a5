// The signed-in user's own account: GET and PATCH /api/v1/auth/me, POST /api/v1/auth/password, and following the
// link that confirms a new email (POST /api/v1/auth/email/confirm).
import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { confirmEmailChange, emailConfirmInput } from '../../../services/accounts/email-change.js';
import {
  changePassword,
  type ProfileChange as ProfileChangeResult,
  passwordChangeInput,
  profileInput,
  updateProfile,
} from '../../../services/accounts/profile.js';
import type { SignInAttempts } from '../../../services/accounts/sign-in-attempts.js';
import { accountSchema, describeAccount } from '../../../services/accounts/view.js';
import type { App } from '../../env.js';
import { authContext, authOperation, guardedForUser, provenRequest, signedIn } from './operation.js';
import { Account } from './sign-in.js';
import { FRESH_PROOF, REAUTHENTICATE, TOO_MANY } from './totp.js';

const ProfileChange = accountSchema
  .extend({
    emailChange: z
      .object({
        email: z.string().describe('The address the link was mailed to.'),
        expiresAt: z.number().int().describe('When the link stops working.'),
      })
      .nullable()
      .describe('Set when a link was just mailed to a new address (202); null otherwise.'),
  })
  .openapi('ProfileChange');

const hours = Math.round(ACCOUNT_LIMITS.emailLinkLifetimeMs / 3600_000);

export function meRoutes(app: App, attempts: SignInAttempts): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/auth/me',
    access: 'session',
    summary: 'The signed-in user',
    description:
      'The user (never a secret) and the organizations they belong to, with their role in each. Send an organization’s key as `X-Warden-Organization` to the organization API to act for it.',
    ok: { status: 200, schema: Account, description: 'The user and their organizations, by name.' },
    run: (c) => describeAccount(authContext(c), { userId: signedIn(c).user.id }),
  });

  authOperation(app, {
    method: 'patch',
    path: '/api/v1/auth/me',
    access: 'session',
    summary: 'Change your name or email',
    description: `The name changes at once. A new email (lower-cased) changes once the link mailed to it is followed (valid ${hours} hours, once); the answer is 202 and the same whether or not another account uses the address (its holder is mailed instead). The same with your own address, not confirmed yet, confirms it. An email change needs a mail server and ${FRESH_PROOF.charAt(0).toLowerCase()}${FRESH_PROOF.slice(1)}`,
    body: profileInput.openapi('ProfileUpdate'),
    ok: { status: 200, schema: ProfileChange, description: 'The name changed (or nothing did).' },
    accepted: {
      description: 'A link was mailed to the new address; the email changes when it is followed.',
      when: (result: ProfileChangeResult) => result.emailChange !== null,
    },
    errors: {
      403: REAUTHENTICATE,
      409: 'The server sends no mail (`…/mail-required`): the operator changes addresses (`warden users set-email`).',
      429: `${TOO_MANY} Or more than ${ACCOUNT_LIMITS.emailLinksPerUserPerHour} address changes in an hour.`,
      503: 'The mail server did not take the mail (`…/mail-not-sent`); try again later.',
    },
    run: (c, body) => updateProfile(authContext(c), { ...body, ...provenRequest(c, attempts) }),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/email/confirm',
    access: 'public',
    summary: 'Confirm a new email with the mailed link',
    description:
      'With the token of the link mailed to the new address (wdu_…): the account uses that address from now on, verified, and the old address is told. No session needed: the link is the proof.',
    body: emailConfirmInput.openapi('EmailConfirm'),
    ok: {
      status: 200,
      schema: z.object({ email: z.string() }).openapi('EmailConfirmed'),
      description: 'The account’s address is now this one.',
    },
    errors: {
      409: 'Another account uses the address now.',
      410: 'The link was used or has expired (`…/link-unusable`).',
    },
    run: (c, body) => confirmEmailChange(authContext(c), body),
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
    errors: {
      409: 'The account has no password (it signs in with OpenID Connect).',
      429: 'Too many wrong passwords; retry after Retry-After seconds.',
    },
    run: async (c, body) => {
      const { user, session } = signedIn(c);
      await guardedForUser(c, attempts, () =>
        changePassword(authContext(c), { ...body, userId: user.id, sessionId: session.id }),
      );
    },
  });
}
