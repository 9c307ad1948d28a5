// Notification channels as stored, their rules, and the deliveries of the outbox: pure types and rules.
import { createHash } from 'node:crypto';
import type { Ownership } from './ownership.js';

/**
 * What a channel wants and when. Scope: event kinds, and monitors (keys), pages (slugs) or component groups (names);
 * a channel with no scope of its own and named by no monitor or page gets everything. Timing: hold, reminders,
 * quiet during maintenance, flap damping, how early a certificate's expiry is told.
 */
export interface NotificationRules {
  events?: string[] | undefined;
  monitors?: string[] | undefined;
  pages?: string[] | undefined;
  groups?: string[] | undefined;
  /** Send a state change only once the state has held this long (0: at once). */
  holdSec?: number | undefined;
  /** While a monitor stays down, remind every this many minutes (absent: never). */
  remindEveryMin?: number | undefined;
  /** Nothing about components under maintenance (true unless set to false). */
  quietDuringMaintenance?: boolean | undefined;
  /** After `changes` state changes within `windowMin`, one "flapping" message, then quiet until stable (absent: off). */
  flap?: { changes: number; windowMin: number } | undefined;
  /** `tls.expiring` this many days before the certificate expires (14 unless set). */
  tlsDays?: number | undefined;
}

export interface NotificationChannel extends Ownership {
  id: string;
  organizationId: string;
  key: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  rules: NotificationRules;
  enabled: boolean;
}

export type NotificationChannelSpec = Pick<
  NotificationChannel,
  'key' | 'name' | 'type' | 'config' | 'rules' | 'enabled'
>;

/** `skipped`: a rule decided at send time that it was no longer wanted (the state did not hold), the reason in lastError. */
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'dead' | 'skipped';

/** A delivery to enqueue: one event for one channel. `event` is the NotificationEvent as JSON. */
export interface NewDelivery {
  id: string;
  eventId: string;
  /** The channel it goes to, or null for a page subscriber's: exactly one of the two is set. */
  channelId: string | null;
  subscriberId?: string | null | undefined;
  organizationId: string;
  monitorId: string | null;
  kind: string;
  event: string;
  /** When it may first be sent (normally now; later while a hold waits). */
  nextAttemptAt: number;
  /** `skipped` records a delivery a rule decided against at once (under maintenance, flapping); pending by default. */
  status?: 'pending' | 'skipped' | undefined;
  /** Why it was skipped. */
  lastError?: string | null | undefined;
}

export interface Delivery extends Omit<NewDelivery, 'status' | 'lastError'> {
  subscriberId: string | null;
  status: DeliveryStatus;
  attempts: number;
  claimedUntil: number | null;
  lastError: string | null;
  lastStatus: number | null;
  lastAnswer: string | null;
  createdAt: number;
  sentAt: number | null;
}

/** A stable event id: the same state change (replayed, or seen by two processes) always gets the same one. */
export function stableEventId(...parts: (string | number)[]): string {
  return `evt_${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 24)}`;
}
