// Invitations to the organization: list the pending ones, invite (a link shown once, mailed when the server sends mail
// and an address is given), revoke. Only owners invite owners. Accepting is the invitee's (services/accounts).
import { z } from 'zod';
import { ACCOUNT_LIMITS, type Invitation, ROLES } from '../../domain/account.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { generateSecret, hashSecret } from '../../domain/tokens.js';
import { sendMail } from '../../notify/channels/email.js';
import { buildInvitationMail } from '../../notify/mail/invitation-mail.js';
import { makerOf } from '../api-keys/maker.js';
import { organizationOf, parseInput, type ServiceContext, withTransaction, writeVerb } from '../context.js';
import { callerRole, requireOrganization } from '../organizations/current.js';

export const invitationViewSchema = z.object({
  id: z.string(),
  email: z.string().nullable().describe('Who may accept it; null: whoever holds the link (once).'),
  role: z.enum(ROLES),
  createdBy: z
    .string()
    .nullable()
    .describe(
      "The user who invited (through an API key: the key's maker); null when the operator's CLI or a key it made did.",
    ),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
  expired: z.boolean(),
});

export type InvitationView = z.infer<typeof invitationViewSchema>;

export const invitationCreateSchema = z
  .object({
    email: z
      .email({ error: 'expected an email address' })
      .max(254)
      .transform((value) => value.toLowerCase())
      .optional()
      .describe(
        'Who may accept it; the link is mailed there when the server sends mail. Left out: anyone holding the link.',
      ),
    role: z.enum(ROLES).describe('The role the invitee gets (only owners invite owners).'),
  })
  .strict();

export const invitationRefSchema = z.object({ id: reference() });

export interface InvitationCreated {
  invitation: InvitationView;
  /** The link with its token: shown this once, stored only as a hash. */
  link: string;
  /** Whether it was mailed to `email` (the server sends mail, and the mail server took it). */
  mailed: boolean;
}

export async function listInvitations(ctx: ServiceContext): Promise<InvitationView[]> {
  const now = ctx.clock.now();
  return (await ctx.store.invitations.listPending(organizationOf(ctx))).map((i) => invitationView(i, now));
}

export async function createInvitation(
  ctx: ServiceContext,
  input: z.input<typeof invitationCreateSchema>,
): Promise<InvitationCreated> {
  const { email, role } = parseInput(invitationCreateSchema, input);
  if (role === 'owner' && callerRole(ctx) !== 'owner') throw new ForbiddenError('Only owners invite owners.');
  const token = generateSecret('invitation');
  const { invitation, organization } = await withTransaction(ctx, async (tx) => {
    const organization = await requireOrganization(tx);
    const now = tx.clock.now();
    if (
      (await tx.store.invitations.countPending(organization.id, now)) >=
      ACCOUNT_LIMITS.pendingInvitationsPerOrganization
    )
      throw new ConflictError(
        `an organization has at most ${ACCOUNT_LIMITS.pendingInvitationsPerOrganization} pending invitations; revoke unused ones first`,
      );
    if (email !== undefined) {
      const user = await tx.store.users.findByEmail(email);
      if (user && (await tx.store.memberships.find(organization.id, user.id)))
        throw new ConflictError(`${email} is already a member`);
    }
    const invitation: Invitation = {
      id: newId('inv'),
      organizationId: organization.id,
      email: email ?? null,
      role,
      // Through a key, its maker: removing or demoting them revokes what they invited (services/members/revoke-made.ts).
      createdBy: await makerOf(tx),
      createdAt: now,
      expiresAt: now + ACCOUNT_LIMITS.invitationLifetimeMs,
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    };
    await tx.store.invitations.insert({ ...invitation, hash: hashSecret(token) });
    return { invitation, organization };
  });
  const link = `${ctx.baseUrl ?? ''}/app/invite?token=${encodeURIComponent(token)}`;
  // After the commit: a mail server taking its time holds no transaction, and a failed send still leaves the link.
  let mailed = false;
  // Limited like the organization's alerts through the same server: past the limit the link is shown, not mailed.
  const allowed =
    ctx.smtp && invitation.email !== null
      ? ((await ctx.systemMail?.invitationMail(organization.id)) ?? { allowed: true })
      : null;
  if (allowed && !allowed.allowed)
    ctx.logger.warn(
      { invitation: invitation.id, reason: allowed.reason },
      'an invitation mail was not sent: the system SMTP limit is reached',
    );
  if (ctx.smtp && invitation.email !== null && allowed?.allowed) {
    const message = buildInvitationMail({
      to: invitation.email,
      from: ctx.smtp.from,
      organization,
      inviter: ctx.actor && ctx.actor.kind !== 'system' ? ctx.actor.name : organization.name,
      role,
      link,
      validDays: Math.round(ACCOUNT_LIMITS.invitationLifetimeMs / 86_400_000),
      now: invitation.createdAt,
    });
    const outcome = await sendMail(ctx.smtp, message, AbortSignal.timeout(INVITATION_MAIL_TIMEOUT_MS));
    mailed = outcome.kind === 'sent';
    if (outcome.kind === 'sent') ctx.logger.info({ invitation: invitation.id }, 'invitation mailed');
    else
      ctx.logger.warn(
        { invitation: invitation.id, error: outcome.error, status: outcome.status },
        'an invitation mail was not sent',
      );
  }
  return { invitation: invitationView(invitation, invitation.createdAt), link, mailed };
}

/** The whole exchange with the mail server, connection included. */
const INVITATION_MAIL_TIMEOUT_MS = 20_000;

export const revokeInvitation = writeVerb(invitationRefSchema, async (tx, { id }): Promise<InvitationView> => {
  const organizationId = organizationOf(tx);
  const pending = (await tx.store.invitations.listPending(organizationId)).find((i) => i.id === id);
  if (!pending || !(await tx.store.invitations.revoke(organizationId, id, tx.clock.now())))
    throw new NotFoundError('invitation', id);
  return invitationView(pending, tx.clock.now());
});

export function invitationView(i: Invitation, now: number): InvitationView {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    createdBy: i.createdBy,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
    expired: i.expiresAt <= now,
  };
}
