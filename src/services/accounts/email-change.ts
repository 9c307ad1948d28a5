// Moving an account to another address — or confirming the one it has — takes effect only once a link mailed to that
// address is followed (so an invitation naming an address, or an OpenID Connect provider vouching for one, reaches
// the person who reads its mail). Asking needs a fresh proof, and is answered the same whether or not another account
// uses the address: that one's holder is mailed instead. The operator may set an address directly (`warden users set-email`).
import { z } from 'zod';
import { ACCOUNT_LIMITS, type Session, type StoredUser, type User } from '../../domain/account.js';
import { MailNotSentError, MailRequiredError, UnusableLinkError } from '../../domain/account-errors.js';
import { ConflictError, NotFoundError, TooManyAttemptsError } from '../../domain/errors.js';
import { generateSecret, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { buildAddressInUseMail, buildEmailChangedMail, buildEmailLinkMail } from '../../notify/mail/account-mail.js';
import { parseInput, type ServiceContext, uniquely, withTransaction, writeVerb } from '../context.js';
import { emailField, linkTokenField } from './account-fields.js';
import { dashboardLink, sendAccountMail } from './account-mail.js';
import { type Proof, requireFreshProof, type SecretGuard } from './fresh-proof.js';

/** The dashboard's page that takes an email link's token. */
export const CONFIRM_EMAIL_PATH = '/app/confirm-email';
const HOUR_MS = 3600_000;

export interface PendingEmail {
  /** The address the link was mailed to. */
  email: string;
  expiresAt: number;
}

/** Whether asking for `email` changes anything: another address, or the user's own one not verified yet. */
export function wantsEmailLink(user: StoredUser, email: string | undefined): email is string {
  return email !== undefined && (email !== user.email || user.emailVerifiedAt === null);
}

/**
 * Mails a link that moves the account to `email` (or confirms it), once the user proved it is them. 409 without a
 * mail server, 429 past ACCOUNT_LIMITS.emailLinksPerUserPerHour, 502 when the mail server would not take it.
 */
export async function requestEmailChange(
  ctx: ServiceContext,
  input: { user: StoredUser; session: Session; email: string; proof: Proof; guard?: SecretGuard | undefined },
): Promise<PendingEmail> {
  const { user, email } = input;
  if (!ctx.smtp)
    throw new MailRequiredError(
      'A new email address takes effect once a link mailed to it is followed, and this server sends no mail (WARDEN_SMTP_URL is not set): ask the operator to change it (`warden users set-email`).',
    );
  const now = ctx.clock.now();
  const recent = await ctx.store.emailLinks.createdForUserSince(user.id, now - HOUR_MS + 1);
  if (recent.length >= ACCOUNT_LIMITS.emailLinksPerUserPerHour) {
    const retryAfterSec = Math.max(1, Math.ceil(((recent[0] ?? now) + HOUR_MS - now) / 1000));
    throw new TooManyAttemptsError(
      `At most ${ACCOUNT_LIMITS.emailLinksPerUserPerHour} address changes an hour; try again in ${retryAfterSec} s.`,
      retryAfterSec,
    );
  }
  await requireFreshProof(ctx, { user, session: input.session, proof: input.proof, guard: input.guard });
  const holder = await ctx.store.users.findByEmail(email);
  const taken = holder !== undefined && holder.id !== user.id;
  const token = generateSecret('accountToken');
  const expiresAt = now + ACCOUNT_LIMITS.emailLinkLifetimeMs;
  // Recorded even for an address in use (its token is never sent): the hourly cap counts every ask alike.
  await ctx.store.emailLinks.insert({
    hash: hashSecret(token),
    purpose: 'email-change',
    userId: user.id,
    email,
    name: null,
    passwordHash: null,
    invitationHash: null,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  const from = ctx.smtp.from;
  const message = taken
    ? buildAddressInUseMail({
        to: email,
        from,
        now,
        purpose: 'email-change',
        signInLink: dashboardLink(ctx, '/app/login'),
      })
    : buildEmailLinkMail({
        to: email,
        from,
        now,
        purpose: 'email-change',
        link: dashboardLink(ctx, `${CONFIRM_EMAIL_PATH}?token=${token}`),
        validHours: Math.round(ACCOUNT_LIMITS.emailLinkLifetimeMs / HOUR_MS),
      });
  if (!(await sendAccountMail(ctx, message, 'email-change')))
    throw new MailNotSentError('The mail with the link could not be sent; try again later.');
  return { email, expiresAt };
}

export const emailConfirmInput = z
  .object({ token: linkTokenField().describe('The token of the link mailed to the new address (wdu_…).') })
  .strict();

/** Follows a link mailed to an address: the account uses it from now on (verified); the old address is told. */
export async function confirmEmailChange(
  ctx: ServiceContext,
  input: z.input<typeof emailConfirmInput>,
): Promise<{ email: string }> {
  const { token } = parseInput(emailConfirmInput, input);
  const { email, previous } = await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const link = isSecretOfKind('accountToken', token)
      ? await tx.store.emailLinks.use(hashSecret(token), 'email-change', now)
      : undefined;
    const user = link?.userId ? await tx.store.users.findById(link.userId) : undefined;
    if (!link || !user)
      throw new UnusableLinkError(
        'link-unusable',
        'This link was used or has expired: change the address again from your account.',
      );
    const holder = await tx.store.users.findByEmail(link.email);
    if (holder && holder.id !== user.id)
      throw new ConflictError('Another account uses this address now: nothing was changed.');
    await uniquely(
      tx,
      () => tx.store.users.update(user.id, { email: link.email, emailVerifiedAt: now }, now),
      'Another account uses this address now: nothing was changed.',
    );
    // The other changes asked for are void: one address wins.
    await tx.store.emailLinks.deleteUnusedOfUser(user.id);
    return { email: link.email, previous: user.email };
  });
  if (previous !== email && ctx.smtp)
    await sendAccountMail(
      ctx,
      buildEmailChangedMail({ to: previous, from: ctx.smtp.from, now: ctx.clock.now(), newEmail: email }),
      'email-changed',
    );
  return { email };
}

export const setEmailInput = z.object({ email: emailField(), newEmail: emailField() });

/** The operator sets a user's address (`warden users set-email`): at once, and verified — the operator vouches for it. */
export const setUserEmail = writeVerb(setEmailInput, async (tx, { email, newEmail }): Promise<User> => {
  const user = await tx.store.users.findByEmail(email);
  if (!user) throw new NotFoundError('user', email);
  const holder = await tx.store.users.findByEmail(newEmail);
  if (holder && holder.id !== user.id) throw new ConflictError(`${newEmail} is the address of another account.`);
  const now = tx.clock.now();
  await uniquely(
    tx,
    () => tx.store.users.update(user.id, { email: newEmail, emailVerifiedAt: now }, now),
    `${newEmail} is the address of another account.`,
  );
  await tx.store.emailLinks.deleteUnusedOfUser(user.id);
  const {
    passwordHash: _p,
    totpSecret: _t,
    ...changed
  } = { ...user, email: newEmail, emailVerifiedAt: now, updatedAt: now };
  return changed;
});
