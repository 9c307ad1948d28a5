// A user who first arrives through OpenID Connect: created without a password, the identity linked, and placed where
// they are expected — the organizations whose invitations await their email, or (WARDEN_SIGNUP=open) an organization
// of their own, as its owner, like an open sign-up.
import { ACCOUNT_LIMITS, type Invitation, type SignupMode } from '../../domain/account.js';
import { newId } from '../../domain/ids.js';
import { recordAudit } from '../audit/record.js';
import type { ServiceContext } from '../context.js';
import type { VerifiedClaims } from './oidc-sign-in.js';
import { createOwnOrganization, joinAll } from './own-organization.js';

/** Thrown inside the transaction when every invitation was taken meanwhile: the new user is rolled back. */
export class InvitationsGone extends Error {}

/** Longest name kept from the provider's claims (a user's name field takes 100 characters). */
const NAME_MAX_CHARS = 100;

/** Inside a transaction: the new user's id. */
/** Links the provider's identity (issuer and subject) to the user, so the identity signs them in from now on. */
export async function linkOidcIdentity(
  ctx: ServiceContext,
  claims: VerifiedClaims,
  userId: string,
  now: number,
): Promise<void> {
  await ctx.store.users.linkIdentity({
    issuer: claims.issuer,
    subject: claims.subject,
    userId,
    email: claims.email,
    createdAt: now,
  });
}

export async function createOidcAccount(
  ctx: ServiceContext,
  input: {
    claims: VerifiedClaims;
    invitations: readonly Invitation[];
    signup: SignupMode;
    fileOrganizationKey?: string | undefined;
  },
): Promise<string> {
  const { store } = ctx;
  const { claims } = input;
  const now = ctx.clock.now();
  const user = {
    id: newId('usr'),
    email: claims.email,
    name: (claims.name ?? claims.email.split('@')[0] ?? claims.email).slice(0, NAME_MAX_CHARS),
  };
  // The provider said the address is verified (oidc-sign-in.ts refuses otherwise).
  await store.users.insert({ ...user, passwordHash: null, emailVerifiedAt: now }, now);
  await linkOidcIdentity(ctx, claims, user.id, now);

  if (input.invitations.length > 0) {
    let joined = 0;
    // Newest first: of two invitations to one organization, the newer one's role counts.
    for (const invitation of input.invitations) {
      if (await store.memberships.find(invitation.organizationId, user.id)) continue;
      if (
        (await store.memberships.listByOrganization(invitation.organizationId)).length >=
        ACCOUNT_LIMITS.membersPerOrganization
      )
        continue;
      if (!(await store.invitations.accept(invitation.id, user.id, now))) continue;
      await store.memberships.put({
        organizationId: invitation.organizationId,
        userId: user.id,
        role: invitation.role,
        createdAt: now,
      });
      await recordAudit(
        {
          ...ctx,
          organizationId: invitation.organizationId,
          actor: { kind: 'user', userId: user.id, name: user.name, role: invitation.role, sessionId: null },
        },
        {
          action: 'invitation.accept',
          id: invitation.id,
          label: user.email,
          detail: { role: invitation.role, via: 'oidc' },
        },
      );
      joined++;
    }
    if (joined > 0) return user.id;
    if (input.signup !== 'open') throw new InvitationsGone();
  }

  const organization = await createOwnOrganization(ctx, { ...user, fileOrganizationKey: input.fileOrganizationKey });
  await joinAll(ctx, user, [organization], 'owner', 'signup');
  return user.id;
}
