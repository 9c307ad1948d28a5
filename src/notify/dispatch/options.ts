// The dispatcher's settings and parts: its defaults (DISPATCH_DEFAULTS), what it is built from (DispatcherDeps) and
// what it offers (Dispatcher). The loop is dispatcher.ts; the pure parts are lanes.ts, policy.ts and acks.ts.
import type { Clock } from '../../domain/clock.js';
import type { Delivery, NotificationRules } from '../../domain/notification.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import type { Logger } from '../../logger.js';
import type { WardenMetrics } from '../../metrics/recorder.js';
import type { Store } from '../../store/index.js';
import type { ChannelDefinition, NotificationEvent } from '../channels/channel.js';
import type { SmtpSettings } from '../mail/smtp.js';
import type { SystemMail } from '../mail/system-mail.js';
import type { SubscriberTarget } from './subscriber-targets.js';

export const DISPATCH_DEFAULTS = {
  pollMs: 250,
  /** Sends in flight at most, across channels. */
  concurrency: 16,
  /** Sends in flight at most to one channel whose definition sets no `maxInFlight`. */
  channelInFlight: 4,
  /** Deliveries held here at most (in flight, or waiting for their lane or their channel's room); claims top it up. */
  maxHeld: 256,
  /** Deliveries held at most for one channel: past it, claims leave that channel out, so a slow one does not crowd out the rest. */
  maxHeldPerChannel: 64,
  attemptTimeoutMs: 10_000,
  /**
   * How long a claim holds, so no other process re-sends it meanwhile. A delivery whose claim would lapse before its
   * send could finish (a long local backlog) is handed back unsent instead, and claimed again.
   */
  leaseMs: 300_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
  /** After this long since it was enqueued, a delivery that still fails is dead. */
  giveUpMs: 24 * 3_600_000,
  /** On stop: how long the sends in flight may take to finish before their claims are handed back (well within the shutdown budget). */
  stopGraceMs: 2_000,
  /** How long the organizations' target policies are reused before they are read again (a changed policy applies within it). */
  policyMaxAgeMs: 1_000,
};

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  // biome-ignore lint/suspicious/noExplicitAny: each definition keeps its own config type; its schema parses the stored config.
  channels: Record<string, ChannelDefinition<any>>;
  options?: Partial<typeof DISPATCH_DEFAULTS>;
  /** In [0, 1): the jitter; Math.random unless a test fixes it. */
  random?: () => number;
  /**
   * Judged just before a send: a reason to skip the delivery (kept in the log as skipped), or null to send it. The
   * channel's rules come with it (a held alert whose state has moved on since is no longer news).
   */
  gate?: (delivery: Delivery, event: NotificationEvent, rules: NotificationRules) => Promise<string | null>;
  /** Where a page subscriber's delivery goes (notify/dispatch/subscriber-targets.ts); without it such deliveries are left alone. */
  subscribers?: (delivery: Delivery) => Promise<SubscriberTarget>;
  /** The system SMTP server: page subscribers' mail, and email channels without a host of their own. */
  smtp?: SmtpSettings | undefined;
  /**
   * WARDEN_PROBE_PRIVATE_TARGETS: with each organization's own setting, where its channels and its page subscribers'
   * webhooks may connect (the probes' policy, `auto` when absent). Every send gets its organization's guard.
   */
  privateTargets?: ProbeTargetPolicy | 'auto' | undefined;
  /**
   * Judges each send of an email channel on the system server (WARDEN_SMTP_TENANTS, the limits, who confirmed): without
   * it such channels mail every recipient, as a trusted one does.
   */
  systemMail?: SystemMail | undefined;
  /** Each attempt counted by channel type and outcome (warden_notification_deliveries_total); absent, nothing is. */
  metrics?: WardenMetrics | undefined;
}

export interface Dispatcher {
  /** Starts polling. */
  start(): void;
  /** Claims now (after a commit that enqueued) instead of at the next poll. */
  wake(): void;
  /** One round: claims what is due and there is room for, starts sending; resolves when those sends are recorded. */
  tick(): Promise<void>;
  /**
   * Stops claiming, lets the sends in flight finish (and be recorded) for up to `stopGraceMs`, then aborts the rest
   * without recording them and releases their claims, with those of the deliveries still queued here: they are due at
   * once for the next dispatcher, under the same event id.
   */
  stop(): Promise<void>;
}
