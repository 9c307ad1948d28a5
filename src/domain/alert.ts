// Alerts and escalation policies (docs/notifications.md, "Escalation and acknowledgement"): pure types and rules. An
// alert is a monitor's open problem, from its down (or degraded) event to its recovery; a policy's steps say which
// channels hear of it at once and which later, while nobody has acknowledged it. The ack link is signed here.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Ownership } from './ownership.js';

export interface Alert {
  id: string;
  organizationId: string;
  monitorId: string;
  openedAt: number;
  openedState: 'down' | 'degraded';
  closedAt: number | null;
  acknowledgedAt: number | null;
  /** A member's name, an API key's name, or `link` (the signed link in the alert). */
  acknowledgedBy: string | null;
  ackNote: string | null;
  policyId: string | null;
  /** Steps of the policy delivered so far (0: none). */
  stepsSent: number;
  /** Keys of the channels the delivered steps went to: its resolve reaches each. */
  stepChannels: string[];
}

export interface EscalationStep {
  /** Minutes after the alert opened (0 for the first step: at once). */
  afterMin: number;
  /** Channel keys. */
  channels: string[];
}

export interface EscalationPolicySpec {
  key: string;
  name: string;
  steps: EscalationStep[];
  /** Monitor keys it covers; null: every monitor of the organization. */
  monitors: string[] | null;
}

export interface EscalationPolicy extends EscalationPolicySpec, Ownership {
  id: string;
  organizationId: string;
  createdAt: number;
  updatedAt: number;
}

export const ESCALATION_LIMITS = {
  policies: 100,
  steps: 10,
  channelsPerStep: 20,
  /** A week: a step later than that is a reminder, not an escalation. */
  maxAfterMin: 10_080,
  monitors: 10_000,
  noteChars: 500,
  /** How long the link in an alert acknowledges it. */
  linkLifetimeMs: 7 * 24 * 3600_000,
} as const;

/** An alert's id: the same for the same opening (monitor and time), so a replayed commit opens the same one. */
export function alertIdOf(monitorId: string, openedAt: number): string {
  return `alr_${createHash('sha256').update(`${monitorId}\u0000${openedAt}`).digest('base64url').slice(0, 20)}`;
}

/** The policy covering a monitor: the first (by key) that names it, else the first naming no monitors. */
export function policyFor(policies: readonly EscalationPolicy[], monitorKey: string): EscalationPolicy | undefined {
  const sorted = [...policies].sort((a, b) => a.key.localeCompare(b.key));
  return sorted.find((p) => p.monitors?.includes(monitorKey)) ?? sorted.find((p) => p.monitors === null);
}

/**
 * The steps (1-based numbers) due for an open alert at `now` and not delivered yet: none once it is closed or
 * acknowledged. A process that was down meanwhile delivers every step that came due, each once.
 */
export function dueSteps(alert: Alert, policy: Pick<EscalationPolicySpec, 'steps'>, now: number): number[] {
  if (alert.closedAt !== null || alert.acknowledgedAt !== null) return [];
  const due: number[] = [];
  policy.steps.forEach((step, index) => {
    const number = index + 1;
    if (number > alert.stepsSent && alert.openedAt + step.afterMin * 60_000 <= now) due.push(number);
  });
  return due;
}

/** The signature of an ack link: it names the alert and the expiry, and does nothing else. */
export function signAckLink(key: string, alertId: string, expiresAt: number): string {
  return createHmac('sha256', key).update(`alert-acknowledge\n${alertId}\n${expiresAt}`).digest('base64url');
}

export type AckLinkCheck = 'valid' | 'expired' | 'forged';

export function checkAckLink(
  key: string,
  link: { alertId: string; expiresAt: number; signature: string },
  now: number,
): AckLinkCheck {
  const expected = Buffer.from(signAckLink(key, link.alertId, link.expiresAt));
  const given = Buffer.from(link.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'forged';
  return link.expiresAt > now ? 'valid' : 'expired';
}

/** The server secret (store.serverSecrets) ack links are signed with. */
export const ACK_LINK_SECRET = 'alert-link-key';

/** The query of an ack link: `/alerts/acknowledge?alert=…&expires=…&sig=…`. */
export const ACK_LINK_PATH = '/alerts/acknowledge';

export function ackLinkUrl(base: string, key: string, alertId: string, expiresAt: number): string {
  const sig = signAckLink(key, alertId, expiresAt);
  return `${base}${ACK_LINK_PATH}?alert=${encodeURIComponent(alertId)}&expires=${expiresAt}&sig=${sig}`;
}
