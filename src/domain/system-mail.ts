// Mail through the operator's system SMTP server on an organization's behalf (email channels without a host of their
// own): who may use it (WARDEN_SMTP_TENANTS), whether a recipient must confirm first, the limits, and the recipients'
// confirmation state with the tokens their links carry.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ManagedBy } from './ownership.js';
import { hashSecret } from './tokens.js';

/**
 * WARDEN_SMTP_TENANTS. auto: channels declared in warden.yaml, and every channel while the database holds one
 * organization, mail without confirmation; the others' recipients confirm. confirm: every recipient confirms. trust:
 * none does. deny: channels made through the API or the dashboard may not use the system server at all (warden.yaml's
 * still may, without confirmation).
 */
export const SMTP_TENANT_MODES = ['auto', 'confirm', 'trust', 'deny'] as const;
export type SmtpTenantMode = (typeof SMTP_TENANT_MODES)[number];

/** What one channel may do with the system server: mail its recipients at once, only those who confirmed, or nothing. */
export type SystemMailPolicy = 'trusted' | 'confirm' | 'refused';

/**
 * The policy of a channel on the system server. `organizations` counts the database's organizations, the built-in demo
 * left out (as WARDEN_PROBE_PRIVATE_TARGETS counts them): one means a self-hosted server whose only organization is
 * the operator's own. A channel warden.yaml declares is the operator's word, never a tenant's.
 */
export function systemMailPolicy(
  mode: SmtpTenantMode,
  channel: { managedBy: ManagedBy },
  organizations: number,
): SystemMailPolicy {
  if (mode === 'trust') return 'trusted';
  if (mode === 'confirm') return 'confirm';
  if (channel.managedBy === 'config') return 'trusted';
  if (mode === 'deny') return 'refused';
  return organizations <= 1 ? 'trusted' : 'confirm';
}

/** The bounds of mail through the system server (docs/notifications.md and docs/security.md list each). */
export const SYSTEM_MAIL_LIMITS = {
  /**
   * Messages one channel may hand the system server per window: an alert or a test counts once whatever the number of
   * recipients, a confirmation mail once each. Beyond, the dispatcher holds the channel's deliveries until the window ends.
   */
  perChannel: 60,
  /** The same for all the channels of one organization together. */
  perOrganization: 200,
  windowMs: 3_600_000,
  /** Tests (POST …/test) one channel may send through the system server per window (counted in the above too): beyond, 429. */
  testsPerChannel: 5,
  /** How long a confirmation link works; an address is asked again (a new link) only once its last link expired. */
  confirmWithinMs: 48 * 3_600_000,
  /** Recipients of one organization awaiting confirmation at once (links not expired): beyond, nobody more is asked. */
  pendingPerOrganization: 200,
  /** An address that never confirmed is forgotten this long after it was last asked (it may be asked again then). */
  forgetUnconfirmedAfterMs: 30 * 24 * 3_600_000,
  /** Counters the in-process limiter keeps at most (channels, organizations, tests): expired windows go first. */
  trackedKeys: 100_000,
} as const;

export type SystemMailLimits = { -readonly [K in keyof typeof SYSTEM_MAIL_LIMITS]: number };

/**
 * One address of one organization's channels: whether it confirmed that it wants that organization's notifications
 * through the system server, or said no more. Kept per organization, so a new channel does not ask again.
 */
export interface ChannelRecipient {
  id: string;
  organizationId: string;
  /** Lower-cased. */
  address: string;
  /** SHA-256 (hex) of the token of the last confirmation link mailed; null when none is live. */
  confirmTokenHash: string | null;
  /** What the unsubscribe link of every message (and of the confirmation mail) carries. */
  unsubscribeToken: string;
  confirmedAt: number | null;
  /** Set once the recipient unsubscribed (or declined): this organization never mails or asks it again. */
  unsubscribedAt: number | null;
  /** When the last confirmation link was mailed, and until when it works. */
  askedAt: number | null;
  expiresAt: number | null;
  createdAt: number;
}

export type RecipientState = 'confirmed' | 'pending' | 'unasked' | 'unsubscribed';

/** Where an address stands: confirmed, a live link waiting, never asked (or its link expired), or unsubscribed. */
export function recipientState(recipient: ChannelRecipient | undefined, now: number): RecipientState {
  if (!recipient) return 'unasked';
  if (recipient.unsubscribedAt !== null) return 'unsubscribed';
  if (recipient.confirmedAt !== null) return 'confirmed';
  return recipient.expiresAt !== null && recipient.expiresAt > now ? 'pending' : 'unasked';
}

/** The form addresses are kept and compared in. */
export function recipientAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** A token naming one recipient: `<recipient id>.<32 random characters>`, looked up by id and then compared. */
export function newRecipientToken(recipientId: string): string {
  return `${recipientId}.${randomBytes(24).toString('base64url')}`;
}

/** The recipient id a token names, or null when it is not a token's shape. */
export function recipientIdOf(token: string): string | null {
  const match = /^(rcp_[0-9a-z]{16})\.[A-Za-z0-9_-]{32}$/.exec(token);
  return match ? (match[1] as string) : null;
}

/** Constant-time: whether a presented token is the stored one (compared as hashes, so lengths never leak). */
export function recipientTokenMatches(presented: string, stored: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(presented), 'hex'), Buffer.from(hashSecret(stored), 'hex'));
}
