// Page subscribers (a visitor's email address or webhook URL following a page's incidents and maintenance): the shape
// the store keeps, the limits that keep the subscribe form from being abused, and the tokens their links carry.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from './tokens.js';

export const SUBSCRIBER_KINDS = ['email', 'webhook'] as const;
export type SubscriberKind = (typeof SUBSCRIBER_KINDS)[number];

/**
 * What a webhook subscriber gets: Warden's signed JSON (`warden`, and every email subscriber), or the message of the
 * Discord or Slack channel, posted to a community's incoming webhook (which cannot answer a challenge).
 */
export const SUBSCRIBER_FORMATS = ['warden', 'discord', 'slack'] as const;
export type SubscriberFormat = (typeof SUBSCRIBER_FORMATS)[number];

/** How a subscriber is named to people: email, webhook, discord or slack. */
export type SubscriberShownKind = SubscriberKind | Exclude<SubscriberFormat, 'warden'>;

export function shownKindOf(s: Pick<PageSubscriber, 'kind' | 'format'>): SubscriberShownKind {
  return s.format === 'warden' ? s.kind : s.format;
}

export interface PageSubscriber {
  id: string;
  organizationId: string;
  pageId: string;
  kind: SubscriberKind;
  format: SubscriberFormat;
  /** The email address (lower-cased) or the webhook URL. */
  address: string;
  /** A webhook subscriber's signing secret (whsec_…); null for email. */
  secret: string | null;
  /** SHA-256 (hex) of the confirmation token mailed for the double opt-in; null once confirmed. */
  confirmTokenHash: string | null;
  /** What the unsubscribe link of every message carries: it can do nothing but unsubscribe this subscriber. */
  unsubscribeToken: string;
  confirmedAt: number | null;
  /** An unconfirmed subscription is deleted after this; null once confirmed (and for a Slack one awaiting approval). */
  expiresAt: number | null;
  /** The client address that asked, for the per-client cap on pending subscriptions; never shown. */
  requestedBy: string | null;
  createdAt: number;
}

/** The bounds of page subscriptions (docs/security.md and docs/notifications.md list each). */
export const SUBSCRIBER_LIMITS = {
  /** Confirmed subscribers a page may have. */
  confirmedPerPage: 10_000,
  /** Subscriptions awaiting confirmation a page may hold at once. */
  pendingPerPage: 1_000,
  /** Subscriptions awaiting confirmation one client address may have asked for at once (over every page). */
  pendingPerClient: 10,
  /** How long a confirmation link works; the unconfirmed subscription is deleted after it. */
  confirmWithinMs: 48 * 3_600_000,
  /** Asking again for a pending email subscription sends a new confirmation mail at most this often. */
  resendAfterMs: 15 * 60_000,
  /** Subscribe requests (POST …/subscribe) per client address per window; beyond: 429. */
  subscribeRequests: 5,
  subscribeWindowMs: 10 * 60_000,
  /** Client addresses the subscribe limiter tracks at most (the oldest windows go first). */
  trackedClients: 100_000,
  /** How long a webhook's answer to the verification request may take. */
  webhookVerifyTimeoutMs: 5_000,
  /** Subscribers one list request answers at most. */
  listMax: 500,
} as const;

/** A token naming one subscriber: `<subscriber id>.<32 random characters>`, so it is looked up by id and then compared. */
export function newSubscriberToken(subscriberId: string): string {
  return `${subscriberId}.${randomBytes(24).toString('base64url')}`;
}

/** The subscriber id a token names, or null when it is not a token's shape. */
export function subscriberIdOf(token: string): string | null {
  const match = /^(sub_[0-9a-z]{16})\.[A-Za-z0-9_-]{32}$/.exec(token);
  return match ? (match[1] as string) : null;
}

/** Constant-time: whether a presented token is the stored one (compared as hashes, so lengths never leak). */
export function tokenMatches(presented: string, stored: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(presented), 'hex'), Buffer.from(hashSecret(stored), 'hex'));
}
