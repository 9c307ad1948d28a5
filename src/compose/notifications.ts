// The notification path's wiring: the system mail server's gate, the dispatcher that sends the outbox, and the outbox
// the verbs and ingest publish on (woken by each commit). One function, so the path's modules are named in one place.
import type { Bus } from '../bus/bus.js';
import { createSharedSystemMailLimiter, type SharedLimitOptions } from '../cluster/shared-limits.js';
import type { Clock } from '../domain/clock.js';
import type { SecurityOptions } from '../domain/security.js';
import { SYSTEM_MAIL_LIMITS, type SystemMailLimits } from '../domain/system-mail.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import { CHANNELS } from '../notify/channels/registry.js';
import { createDispatcher } from '../notify/dispatch/dispatcher.js';
import { createRulesGate } from '../notify/dispatch/rules-gate.js';
import { createSubscriberTargets } from '../notify/dispatch/subscriber-targets.js';
import type { SmtpSettings } from '../notify/mail/smtp.js';
import { createSystemMail } from '../notify/mail/system-mail.js';
import { createSystemMailLimiter } from '../notify/mail/system-mail-limits.js';
import { createNotificationOutbox } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';

export interface NotificationWiring {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  baseUrl: () => string;
  security: SecurityOptions;
  smtp?: SmtpSettings | undefined;
  systemMailLimits?: Partial<SystemMailLimits> | undefined;
  metrics?: WardenMetrics | undefined;
  /** Cluster mode: the system mail limits counted in Redis. */
  shared?: SharedLimitOptions | null | undefined;
}

export function composeNotifications(options: NotificationWiring) {
  const { store, clock, logger } = options;
  // Email channels on the system SMTP server: who may, whose recipients confirm first, and how much (shared in a cluster).
  const limits: SystemMailLimits = { ...SYSTEM_MAIL_LIMITS, ...options.systemMailLimits };
  const localLimiter = createSystemMailLimiter(limits);
  const systemMail = createSystemMail({
    store,
    clock,
    logger,
    smtp: options.smtp,
    mode: options.security.smtpTenants,
    baseUrl: options.baseUrl,
    limits,
    limiter: options.shared ? createSharedSystemMailLimiter(localLimiter, { ...options.shared, limits }) : localLimiter,
  });
  // The outbox is written in ingest's commits and the verbs' transactions; the dispatcher sends it, woken at once by a commit.
  // The gate: what only send time can judge (a held state that did not hold, a recovery after an alert not sent).
  const dispatcher = createDispatcher({
    store,
    clock,
    logger,
    channels: CHANNELS,
    gate: createRulesGate({ store }),
    // Page subscribers' deliveries: mail through the system SMTP server, webhooks like channels.
    subscribers: createSubscriberTargets({ store, baseUrl: options.baseUrl, logger }),
    smtp: options.smtp,
    // Every channel and subscriber webhook connects under its organization's probe-target policy.
    privateTargets: options.security.probePrivateTargets,
    systemMail,
    metrics: options.metrics,
  });
  const outbox = createNotificationOutbox({
    bus: options.bus,
    clock,
    baseUrl: options.baseUrl,
    onCommitted: () => dispatcher.wake(),
  });
  return { systemMail, dispatcher, outbox };
}
