// Signs in the person an OpenID Connect provider vouches for (docs/accounts.md): by the identity linked before (issuer,
// subject); else by the user with that verified email, linking the identity; else as a new user when an invitation awaits
// that email or WARDEN_SIGNUP is open. Every way ends in issueSession, like a password sign-in.
import { z } from 'zod';
import { type Session, SIGNUP_MODES, type SignupMode } from '../../domain/account.js';
import { parseInput, type ServiceContext, withTransaction } from '../context.js';
import { issueSession } from './issue-session.js';
import { createOidcAccount, InvitationsGone, linkOidcIdentity } from './oidc-new-account.js';

/**
 * Why nobody was signed in; each is a message of the sign-in page (/app/login?error=oidc-…, no-account).
 * `account-unverified`: a Warden account has the address but never confirmed it, so it is not linked to the identity.
 */
export type OidcRefusal = 'no-email' | 'email-unverified' | 'account-unverified' | 'no-account';

export type OidcSignIn =
  | { ok: true; userId: string; token: string; session: Session }
  | { ok: false; reason: OidcRefusal };

const signInInput = z.object({
  claims: z.object({
    issuer: z.string().min(1).max(500),
    subject: z.string().min(1).max(255),
    email: z.string().max(320).nullable(),
    emailVerified: z.boolean(),
    name: z.string().nullable(),
  }),
  signup: z.enum(SIGNUP_MODES),
  /** The key of the config file the server applies: no new account's organization takes it. */
  fileOrganizationKey: z.string().optional(),
  userAgent: z.string().optional(),
  address: z.string().optional(),
});

export type OidcSignInInput = z.input<typeof signInInput>;

export async function signInWithOidc(ctx: ServiceContext, given: OidcSignInInput): Promise<OidcSignIn> {
  const { claims, signup, fileOrganizationKey, userAgent, address } = parseInput(signInInput, given);
  const email = claims.email === null ? null : z.email().safeParse(claims.email.toLowerCase()).data;
  if (email === undefined || email === null) return { ok: false, reason: 'no-email' };
  // Whoever controls an address the provider has not verified could otherwise take over the Warden user who owns it.
  if (!claims.emailVerified) return { ok: false, reason: 'email-unverified' };
  const found = await findOrCreateUser(ctx, { ...claims, email }, { signup, fileOrganizationKey });
  if (typeof found !== 'string') return { ok: false, reason: found.refused };
  const userId = found;
  const { token, session } = await issueSession(ctx, { userId, userAgent, address });
  return { ok: true, userId, token, session };
}

export interface VerifiedClaims {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
}

/** Who may sign up (WARDEN_SIGNUP), and the organization key no new account takes. */
interface SignupPolicy {
  signup: SignupMode;
  fileOrganizationKey?: string | undefined;
}

type Refused = { refused: 'account-unverified' | 'no-account' };

async function findOrCreateUser(
  ctx: ServiceContext,
  claims: VerifiedClaims,
  policy: SignupPolicy,
): Promise<string | Refused> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await withTransaction(ctx, (tx) => matchOrCreate(tx, claims, policy));
    } catch (error) {
      if (error instanceof InvitationsGone) return { refused: 'no-account' };
      // Two callbacks of one person at once: the one that lost the race finds what the other one linked.
      if (attempt === 0 && ctx.store.isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function matchOrCreate(
  ctx: ServiceContext,
  claims: VerifiedClaims,
  { signup, fileOrganizationKey }: SignupPolicy,
): Promise<string | Refused> {
  const { store } = ctx;
  const now = ctx.clock.now();
  // Once linked, the identity decides, whatever email the provider gives now.
  const identity = await store.users.findIdentity(claims.issuer, claims.subject);
  if (identity) return identity.userId;
  const user = await store.users.findByEmail(claims.email);
  // An address typed into a profile, never confirmed, could be anyone's: only a verified one links the identity.
  if (user && user.emailVerifiedAt === null) return { refused: 'account-unverified' };
  if (user) {
    await linkOidcIdentity(ctx, claims, user.id, now);
    return user.id;
  }
  const invitations = await store.invitations.listPendingForEmail(claims.email, now);
  // `closed`: nobody signs up, invited or not (owners add people with the CLI), the same as with a password.
  if (signup === 'closed' || (invitations.length === 0 && signup !== 'open')) return { refused: 'no-account' };
  return createOidcAccount(ctx, { claims, invitations, signup, fileOrganizationKey });
}
