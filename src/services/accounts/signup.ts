// Signing up, as WARDEN_SIGNUP allows: `closed` (nobody; owners add people with the CLI), `invite` (with an invitation
// link only) or `open` (anyone: a new organization of their own, or the invitation's when they bring one).
//
// Sign-up must not tell who has an account. The invitation is checked first (an unknown, used or foreign one answers
// the same whatever the email); then, when the server sends mail, every sign-up answers 202 and continues by mail: a
// link that finishes it to a new address, "you already have an account" to a known one. Without a mail server nothing
// can be said privately: the account is made at once (201), and an address that has one answers 409 — which only
// someone holding an invitation (or, in open mode, anyone) can ask, a few times an hour (docs/accounts.md).
import { z } from 'zod';
import { ACCOUNT_LIMITS, type Invitation, type SignupMode } from '../../domain/account.js';
import { MailNotSentError, UnusableLinkError } from '../../domain/account-errors.js';
import { ConflictError, ForbiddenError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { generateSecret, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { buildAddressInUseMail, buildEmailLinkMail } from '../../notify/mail/account-mail.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { emailField, linkTokenField, newPasswordField, userNameField } from './account-fields.js';
import { dashboardLink, sendAccountMail } from './account-mail.js';
import { type InvitationRef, joinByInvitation, usableInvitation } from './invitations.js';
import { issueSession } from './issue-session.js';
import type { Client } from './login.js';
import { createOwnOrganization, joinAll } from './own-organization.js';
import { hashAccountPassword } from './password.js';
import { describeAccount, type SignedIn } from './view.js';

/** The dashboard's page that takes a sign-up link's token. */
export const CONFIRM_SIGNUP_PATH = '/app/confirm-signup';

export const signupInput = z
  .object({
    email: emailField(),
    name: userNameField(),
    password: newPasswordField(),
    invitation: linkTokenField()
      .optional()
      .describe('The invitation token (wdi_…) from an invitation link: the new user joins its organization.'),
  })
  .strict();

/** Signed in at once (no mail server), or a link mailed to the address (202). */
export type SignupOutcome =
  | { kind: 'signed-in'; signed: SignedIn }
  | { kind: 'mailed'; email: string; expiresAt: number };

const TAKEN = 'An account with this email address exists: sign in instead.';
const NEEDS_INVITATION =
  'Signing up needs an invitation link on this server: ask an admin of your organization for one.';
const CLOSED = 'Sign-up is closed on this server: ask an owner to add you.';

/** `mode`: WARDEN_SIGNUP; `fileOrganizationKey`: the key of the config file the server applies (no sign-up takes it). */
export async function signup(
  ctx: ServiceContext,
  input: z.input<typeof signupInput> & Client & { mode: SignupMode; fileOrganizationKey?: string | undefined },
): Promise<SignupOutcome> {
  const { userAgent, address, mode, fileOrganizationKey, ...given } = input;
  if (mode === 'closed') throw new ForbiddenError(CLOSED);
  const { email, name, password, invitation: invitationToken } = parseInput(signupInput, given);
  if (mode === 'invite' && invitationToken === undefined) throw new ForbiddenError(NEEDS_INVITATION);
  // The invitation before anything about the email: a stranger without a usable one learns nothing of who is here.
  const invited = invitationToken === undefined ? null : await usableInvitation(ctx, { token: invitationToken });
  if (invited?.invitation.email != null && invited.invitation.email !== email)
    throw new ForbiddenError(
      'This invitation is for another email address: sign up with that one (or ask for an invitation to yours).',
    );
  // The same scrypt work whether or not the address has an account.
  const passwordHash = await hashAccountPassword(password);
  if (ctx.smtp) return mailSignup(ctx, { email, name, passwordHash, invitationToken, invited });
  if (await ctx.store.users.findByEmail(email)) throw new ConflictError(TAKEN);
  // An invitation naming the address: the inviter vouches for it (and it was mailed there when the server could).
  const verified = invited?.invitation.email === email;
  const userId = await createAccount(ctx, {
    email,
    name,
    passwordHash,
    verified,
    invitation: invitationToken === undefined ? null : { token: invitationToken },
    fileOrganizationKey,
  });
  const { token, session } = await issueSession(ctx, { userId, userAgent, address });
  return { kind: 'signed-in', signed: { token, session, account: await describeAccount(ctx, { userId }) } };
}

async function mailSignup(
  ctx: ServiceContext,
  input: {
    email: string;
    name: string;
    passwordHash: string;
    invitationToken: string | undefined;
    invited: { invitation: Invitation; organization: { name: string } } | null;
  },
): Promise<SignupOutcome> {
  const { email, invitationToken, invited } = input;
  const smtp = ctx.smtp;
  if (!smtp) throw new Error('mailSignup needs the mail server');
  const now = ctx.clock.now();
  const expiresAt = now + ACCOUNT_LIMITS.emailLinkLifetimeMs;
  const holder = await ctx.store.users.findByEmail(email);
  let message: ReturnType<typeof buildEmailLinkMail>;
  if (holder) {
    const invitationLink =
      invitationToken === undefined
        ? undefined
        : dashboardLink(ctx, `/app/invite?token=${encodeURIComponent(invitationToken)}`);
    message = buildAddressInUseMail({
      to: email,
      from: smtp.from,
      now,
      purpose: 'signup',
      signInLink: dashboardLink(ctx, '/app/login'),
      invitationLink,
    });
  } else {
    const token = generateSecret('accountToken');
    await ctx.store.emailLinks.insert({
      hash: hashSecret(token),
      purpose: 'signup',
      userId: null,
      email,
      name: input.name,
      passwordHash: input.passwordHash,
      invitationHash: invitationToken === undefined ? null : hashSecret(invitationToken),
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    message = buildEmailLinkMail({
      to: email,
      from: smtp.from,
      now,
      purpose: 'signup',
      link: dashboardLink(ctx, `${CONFIRM_SIGNUP_PATH}?token=${token}`),
      validHours: Math.round(ACCOUNT_LIMITS.emailLinkLifetimeMs / 3600_000),
      organization: invited?.organization.name,
    });
  }
  if (!(await sendAccountMail(ctx, message, 'signup')))
    throw new MailNotSentError('The mail to finish signing up could not be sent; try again later.');
  return { kind: 'mailed', email, expiresAt };
}

export const signupConfirmInput = z
  .object({ token: linkTokenField().describe('The token of the link mailed to finish signing up (wdu_…).') })
  .strict();

/** Follows the link a sign-up mailed: the account is made (its address verified), joins where it was headed, and signs in. */
export async function confirmSignup(
  ctx: ServiceContext,
  input: z.input<typeof signupConfirmInput> & Client & { mode: SignupMode; fileOrganizationKey?: string | undefined },
): Promise<SignedIn> {
  const { userAgent, address, mode, fileOrganizationKey, ...given } = input;
  if (mode === 'closed') throw new ForbiddenError(CLOSED);
  const { token } = parseInput(signupConfirmInput, given);
  const userId = await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const link = isSecretOfKind('accountToken', token)
      ? await tx.store.emailLinks.use(hashSecret(token), 'signup', now)
      : undefined;
    if (!link || link.name === null || link.passwordHash === null)
      throw new UnusableLinkError('link-unusable', 'This link was used or has expired: sign up again.');
    if (link.invitationHash === null && mode !== 'open') throw new ForbiddenError(NEEDS_INVITATION);
    if (await tx.store.users.findByEmail(link.email)) throw new ConflictError(TAKEN);
    const invitation = link.invitationHash === null ? null : { hash: link.invitationHash };
    return createAccount(tx, {
      email: link.email,
      name: link.name,
      passwordHash: link.passwordHash,
      verified: true,
      invitation,
      fileOrganizationKey,
    });
  });
  const { token: sessionToken, session } = await issueSession(ctx, { userId, userAgent, address });
  return { token: sessionToken, session, account: await describeAccount(ctx, { userId }) };
}

/** The new user, in the invitation's organization or (without one) an organization of their own; their id. */
async function createAccount(
  ctx: ServiceContext,
  input: {
    email: string;
    name: string;
    passwordHash: string;
    verified: boolean;
    invitation: InvitationRef | null;
    fileOrganizationKey?: string | undefined;
  },
): Promise<string> {
  const { email, name, passwordHash, invitation, fileOrganizationKey } = input;
  const userId = newId('usr');
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await uniquely(
      tx,
      () =>
        tx.store.users.insert(
          { id: userId, email, name, passwordHash, emailVerifiedAt: input.verified ? now : null },
          now,
        ),
      TAKEN,
    );
    const user = await tx.store.users.findById(userId);
    if (!user) throw new Error('the new user was not stored');
    if (invitation !== null) {
      await joinByInvitation(tx, invitation, user, null);
      return;
    }
    const organization = await createOwnOrganization(tx, { email, name, fileOrganizationKey });
    await joinAll(tx, { id: userId, name, email }, [organization], 'owner', 'signup');
  });
  return userId;
}
