// People and their access (issue 16): users, their sessions, their roles in organizations, invitations, and the
// audit log of who did what. Pure types and rules; the store keeps them, services/accounts/ acts on them.
import type { ApiKeyScope } from './organization.js';

/** The roles of a member, weakest first: each may do what the one before it may, and more. */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What an operation needs, by the weakest role allowed to do it:
 * - `viewer` reads everything of the organization but its credentials;
 * - `editor` also changes monitors, pages, components, incidents and maintenance;
 * - `admin` also API keys, relays, notification channels, subscribers, members and reads the audit log;
 * - `owner` also deletes the organization and makes or unmakes owners.
 */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** The role an API key acts with: a read key reads like a viewer; a write key does what an admin does (never what only an owner may). */
export function apiKeyRole(scope: ApiKeyScope): Role {
  return scope === 'write' ? 'admin' : 'viewer';
}

/** WARDEN_SIGNUP: nobody signs up (`closed`), only with an invitation (`invite`, the default), or anyone (`open`, a new organization each). */
export const SIGNUP_MODES = ['closed', 'invite', 'open'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export interface User {
  id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string;
  /** False for a user who only signs in with OpenID Connect. */
  hasPassword: boolean;
  /** Since when the TOTP second factor is on; null when off. */
  totpEnabledAt: number | null;
  /**
   * When the address was last shown to be the user's (a link mailed to it followed, an invitation naming it, an
   * operator or the first-run setup, an OpenID Connect provider); null when never. Invitations naming an email and
   * OpenID Connect's linking by email trust verified addresses only.
   */
  emailVerifiedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A user as the store holds it, with what only authentication reads. */
export interface StoredUser extends User {
  /** scrypt (domain/passwords.ts), null without a password. */
  passwordHash: string | null;
  /** The TOTP secret (base32): confirmed once totpEnabledAt is set, pending enrolment before. */
  totpSecret: string | null;
}

/** A signed-in browser: an opaque random token in a cookie, kept only as its hash. */
export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  /** Sliding: moved forward as the session is used (SESSION_LIMITS.lifetimeMs after the last use). */
  expiresAt: number;
  /** What the owner sees in their list of sessions to tell them apart; truncated. */
  userAgent: string | null;
  address: string | null;
  /**
   * When the user last proved it is them in this session: signing in, or their password or a code since. What a
   * sensitive change (recovery codes, TOTP, email) needs within ACCOUNT_LIMITS.freshProofMs; null: never (older sessions).
   */
  provenAt: number | null;
}

export interface Membership {
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: number;
}

/** An invitation to join an organization with a role, by link (and by email when the service can send mail). */
export interface Invitation {
  id: string;
  organizationId: string;
  /** Who may accept it; null for a link anyone holding it may use once. */
  email: string | null;
  role: Role;
  /** The user who invited. */
  createdBy: string | null;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
  revokedAt: number | null;
}

/** One-time tokens of the accounts: the first-run setup link and a password reset, kept as hashes. */
export const ACCOUNT_TOKEN_PURPOSES = ['setup', 'password-reset'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

export interface AccountToken {
  hash: string;
  purpose: AccountTokenPurpose;
  /** The user a reset is for; null for setup. */
  userId: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** Links mailed to an address: finishing a sign-up, or moving an account to (or confirming) that address. */
export const EMAIL_LINK_PURPOSES = ['signup', 'email-change'] as const;
export type EmailLinkPurpose = (typeof EMAIL_LINK_PURPOSES)[number];

/** A one-time link mailed to `email` (wdu_…, kept as its hash); what it does is held here until it is followed. */
export interface EmailLink {
  hash: string;
  purpose: EmailLinkPurpose;
  /** The account whose address changes; null for a sign-up (the account does not exist yet). */
  userId: string | null;
  /** The (lower-cased) address the link was mailed to: the new address, or the one signing up. */
  email: string;
  /** A sign-up's name, password hash (scrypt) and invitation (the hash of its token), kept until the link is followed. */
  name: string | null;
  passwordHash: string | null;
  invitationHash: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** A user's identity at an OpenID Connect provider: matched on (issuer, subject) once linked. */
export interface UserIdentity {
  issuer: string;
  subject: string;
  userId: string;
  email: string;
  createdAt: number;
}

/**
 * Who acts: a signed-in user with their role in the organization, an API key (with the role its scope maps to), or
 * Warden itself (warden.yaml's sync, the CLI, the runner) — the last ones are never refused.
 */
export type Actor =
  | { kind: 'user'; userId: string; name: string; role: Role; sessionId: string | null }
  | { kind: 'apiKey'; apiKeyId: string; name: string; role: Role }
  | { kind: 'system'; name: 'config' | 'cli' | 'runner' | 'link' };

/** An entry of the audit log: who did what to which object, when. */
export interface AuditEntry {
  id: string;
  organizationId: string;
  at: number;
  actorKind: Actor['kind'];
  /** The user's or API key's id; the system's name. */
  actorId: string;
  /** The user's name or email, the key's name, at the time. */
  actorName: string;
  /** `monitor.create`, `page.update`, `member.remove`, … */
  action: string;
  objectType: string;
  objectId: string | null;
  /** A name to show for the object (its key, slug or title) at the time. */
  objectLabel: string | null;
  /** A small JSON object of what changed (field names, never secrets); null when there is nothing to add. */
  detail: Record<string, unknown> | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** The limits of accounts: named here, documented in docs/security.md. */
export const ACCOUNT_LIMITS = {
  /** A session unused this long ends; each use (at most once a minute) moves its end forward. */
  sessionLifetimeMs: 30 * 24 * 3600_000,
  sessionTouchResolutionMs: 60_000,
  /** Sessions a user may hold at once; signing in past it ends the least recently used. */
  sessionsPerUser: 50,
  setupTokenLifetimeMs: 3600_000,
  passwordResetLifetimeMs: 3600_000,
  invitationLifetimeMs: 7 * 24 * 3600_000,
  pendingInvitationsPerOrganization: 200,
  membersPerOrganization: 1000,
  organizationsPerUser: 100,
  passwordMinChars: 10,
  passwordMaxChars: 200,
  recoveryCodes: 10,
  /**
   * A sensitive change — new recovery codes, TOTP on or off, a new email — needs the password or a code proven this
   * recently in the session (signing in counts), or sent with the request.
   */
  freshProofMs: 5 * 60_000,
  /** A link mailed to finish a sign-up or to confirm a new address works this long, once. */
  emailLinkLifetimeMs: 24 * 3600_000,
  /** Links a user may have mailed (email changes) in an hour; past it, 429. */
  emailLinksPerUserPerHour: 5,
  /** Sign-ups a client address may try in an hour (each may mail someone); past it, 429 with Retry-After. */
  signupsPerClientPerHour: 10,
  /** A browser that signed in as a user is known for this long (its signed cookie): its right password is never locked out. */
  knownDeviceLifetimeMs: 180 * 24 * 3600_000,
  /** Users one browser's known-device cookie remembers; signing in as one more forgets the least recent. */
  knownDeviceUsers: 5,
  /** Audit entries kept per organization, newest first; older ones are pruned by retention. */
  auditRetentionDays: 400,
  auditPageMax: 200,
} as const;
