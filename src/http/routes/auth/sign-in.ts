// Ways in and out: POST /api/v1/auth/login, /logout, /setup (first run), /signup (and its mailed link) and
// /password-reset. Each way in sets the session cookie and the known-device cookie; wrong guesses are limited per
// account and per client address (WARDEN_LOGIN_ATTEMPTS_PER_MINUTE), or from a known device of the account per device.

import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS, type SignupMode } from '../../../domain/account.js';
import { authenticateSession } from '../../../services/accounts/authenticate-session.js';
import { knownDeviceFor } from '../../../services/accounts/known-devices.js';
import { login, loginInput } from '../../../services/accounts/login.js';
import { passwordResetInput, resetPassword } from '../../../services/accounts/password-reset.js';
import { logout } from '../../../services/accounts/sessions.js';
import { completeSetup, setupInput } from '../../../services/accounts/setup.js';
import { type SignInAttempts, signInKeys } from '../../../services/accounts/sign-in-attempts.js';
import {
  confirmSignup,
  type SignupOutcome,
  signup,
  signupConfirmInput,
  signupInput,
} from '../../../services/accounts/signup.js';
import type { SignupAttempts } from '../../../services/accounts/signup-attempts.js';
import { accountSchema } from '../../../services/accounts/view.js';
import { readDeviceCookie } from '../../device-cookie.js';
import type { App } from '../../env.js';
import { clearSessionCookie, readSessionToken } from '../../session-cookie.js';
import { authContext, authOperation, clientOf } from './operation.js';

export const Account = accountSchema.openapi('Account');

const SignupMailed = z
  .object({
    email: z.string().describe('Where the link (or the note to sign in) was mailed.'),
    expiresAt: z.number().int().describe('When a link stops working.'),
  })
  .openapi('SignupMailed');

const signupMode = (c: { var: { deps: { accounts?: { signup: SignupMode } | undefined } } }): SignupMode =>
  c.var.deps.accounts?.signup ?? 'invite';

export function signInRoutes(app: App, attempts: SignInAttempts, signupAttempts: SignupAttempts): void {
  sessionRoutes(app, attempts);
  signupRoutes(app, signupAttempts);
}

/** Signing in and out, and the first owner's setup. */
function sessionRoutes(app: App, attempts: SignInAttempts): void {
  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/login',
    access: 'public',
    summary: 'Sign in',
    description:
      'With an email and a password, and — when the user turned TOTP on — `code`: the 6-digit code of their app or an unused recovery code. Sets the session cookie, and the known-device cookie (HttpOnly, 180 days): from that browser the user’s right password is never refused for others’ wrong guesses at the account. Without a code where one is needed, answers 401 with the problem type `…/second-factor-required` (ask for it and send the request again with `code`).',
    body: loginInput.openapi('Login'),
    ok: {
      status: 200,
      schema: Account,
      description: 'Signed in: the user and their organizations; the cookie is set.',
    },
    errors: {
      401: 'The email or password is not right (`…/invalid-credentials`, the same answer for an unknown email), a code is needed (`…/second-factor-required`) or it is not right (`…/invalid-second-factor`).',
      429: 'Too many wrong attempts for this account or from this address (from a known device of the account: from that device); retry after Retry-After seconds.',
    },
    run: async (c, body) => {
      const client = clientOf(c);
      const ctx = authContext(c);
      // From a known device of the account, only that device's own wrong guesses count: whoever else fills the
      // account's and the address's limits cannot keep its owner out.
      const device = await knownDeviceFor(ctx, { cookie: readDeviceCookie(c), email: body.email });
      const keys = device
        ? [signInKeys.device(device.userId, device.deviceId)]
        : [signInKeys.email(body.email), signInKeys.client(client.address)];
      return attempts.guard(
        keys,
        () => c.var.deps.clock.now(),
        () => login(ctx, { ...body, ...client }),
      );
    },
    respond: (signed) => signed.account,
    signsIn: (signed) => signed,
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/logout',
    access: 'public',
    summary: 'Sign out',
    description:
      'Ends this browser’s session (on every process at once) and clears the cookie. Answers 204 also when the session had ended already.',
    ok: { status: 204, description: 'Signed out.' },
    run: async (c) => {
      const token = readSessionToken(c);
      const ctx = authContext(c);
      const found = token === undefined ? null : await authenticateSession(ctx, { token });
      if (found) await logout(ctx, { userId: found.user.id, sessionId: found.session.id });
      clearSessionCookie(c);
    },
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/setup',
    access: 'public',
    summary: 'Create the first owner (first run)',
    description:
      'With the setup code (`code`) the server logs at start and `warden setup-code` prints while no account exists — or the token of a setup link — creates the user, makes them owner of every organization but the built-in demo (or of a new one, `organization`, when there is none) and signs them in. A code works once, before it expires, and only the newest one does; wrong codes count against the sign-in attempt limits of the client’s address and of the setup itself.',
    body: setupInput.openapi('Setup'),
    ok: { status: 201, schema: Account, description: 'Created and signed in; the cookie is set.' },
    errors: {
      400: 'An invalid field, or a setup code that is wrong, used, expired or replaced (the error names `body.code`).',
      409: 'An account exists already: setup is done.',
      410: 'The setup link was used, has expired or was replaced by a newer one (restart Warden for a new one).',
      429: 'Too many wrong setup codes from this address, or for the setup; retry after Retry-After seconds.',
    },
    run: (c, body) => {
      const client = clientOf(c);
      const ctx = authContext(c);
      if (body.code === undefined) return completeSetup(ctx, { ...body, ...client });
      return attempts.guard(
        [signInKeys.client(client.address), signInKeys.setup],
        () => c.var.deps.clock.now(),
        () => completeSetup(ctx, { ...body, ...client }),
      );
    },
    respond: (signed) => signed.account,
    signsIn: (signed) => signed,
  });
}

/** Signing up (with its mailed link), and setting a password with a one-time link. */
function signupRoutes(app: App, signupAttempts: SignupAttempts): void {
  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/signup',
    access: 'public',
    summary: 'Sign up',
    description: `As WARDEN_SIGNUP allows: \`closed\` refuses (403); \`invite\` needs \`invitation\`, the token of an invitation link (checked before anything else); \`open\` creates an organization of the new user’s own (or joins the invitation’s, when one is given). When the server sends mail, the answer is 202 whether or not the address has an account: a link that finishes the sign-up is mailed to a new address (\`POST /api/v1/auth/signup/confirm\`), a note to sign in to a known one. Without a mail server the user is created and signed in at once (201), and an address that has an account answers 409. At most ${ACCOUNT_LIMITS.signupsPerClientPerHour} sign-ups an hour from one address.`,
    body: signupInput.openapi('Signup'),
    ok: { status: 201, schema: Account, description: 'Created and signed in (no mail server); the cookie is set.' },
    accepted: {
      description: 'A link was mailed to the address: the sign-up finishes when it is followed.',
      schema: SignupMailed,
      when: (r: SignupOutcome) => r.kind === 'mailed',
    },
    errors: {
      403: 'Sign-up is closed, needs an invitation, or the invitation is for another email address.',
      404: 'No invitation has this token.',
      409: 'No mail server, and an account with this email address exists.',
      410: 'The invitation was used, withdrawn or has expired.',
      429: 'Too many sign-ups from this address; retry after Retry-After seconds.',
      503: 'The mail server did not take the mail (`…/mail-not-sent`); try again later.',
    },
    run: async (c, body) => {
      await signupAttempts.take(clientOf(c).address, c.var.deps.clock.now());
      return signup(authContext(c), {
        ...body,
        ...clientOf(c),
        mode: signupMode(c),
        fileOrganizationKey: c.var.deps.accounts?.fileOrganizationKey,
      });
    },
    respond: (r) => (r.kind === 'signed-in' ? r.signed.account : { email: r.email, expiresAt: r.expiresAt }),
    signsIn: (r) => (r.kind === 'signed-in' ? r.signed : null),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/signup/confirm',
    access: 'public',
    summary: 'Finish signing up with the mailed link',
    description:
      'With the token of the link a sign-up mailed (wdu_…): creates the user (their address verified), joins the invitation’s organization or — open sign-up — one of their own, and signs them in.',
    body: signupConfirmInput.openapi('SignupConfirm'),
    ok: { status: 201, schema: Account, description: 'Created and signed in; the cookie is set.' },
    errors: {
      403: 'Sign-up is closed now, or needs an invitation.',
      409: 'An account with this address exists now.',
      410: 'The link was used or has expired (`…/link-unusable`), or the invitation it carries was used, withdrawn or has expired.',
    },
    run: (c, body) =>
      confirmSignup(authContext(c), {
        ...body,
        ...clientOf(c),
        mode: signupMode(c),
        fileOrganizationKey: c.var.deps.accounts?.fileOrganizationKey,
      }),
    respond: (signed) => signed.account,
    signsIn: (signed) => signed,
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/password-reset',
    access: 'public',
    summary: 'Set a password with a one-time link',
    description:
      'With the token of a password link (`warden users reset-password`, or `warden users create` without a password): sets the password and ends every session of the user. Sign in afterwards.',
    body: passwordResetInput.openapi('PasswordReset'),
    ok: { status: 204, description: 'The password is set; every session of the user ended.' },
    errors: { 410: 'The link was used or has expired.' },
    run: (c, body) => resetPassword(authContext(c), body),
  });
}
