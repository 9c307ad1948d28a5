// The dispatcher's sending: where a delivery goes (its channel's definition and parsed config, or a page subscriber's
// target), under which target guard (its organization's policy, read at most once per policyMaxAgeMs), and one send
// bounded by the attempt's time limit and the stop. What the outcome means is policy.ts's business.
import type { Clock } from '../../domain/clock.js';
import type { Delivery, NotificationChannel, NotificationRules } from '../../domain/notification.js';
import { probeTargetPolicies } from '../../domain/organization.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { type TargetGuard, targetGuard } from '../../net/target-guard.js';
import type { Store } from '../../store/index.js';
import type { ChannelDefinition, MailRecipient, NotificationEvent, SendOutcome } from '../channels/channel.js';
import type { SmtpSettings } from '../mail/smtp.js';
import type { SubscriberTarget } from './subscriber-targets.js';

export interface Target {
  /** Names the target in logs (the channel's key), never a secret. */
  label: string;
  /** The channel, for a channel's delivery. */
  channel?: NotificationChannel;
  // biome-ignore lint/suspicious/noExplicitAny: the definition's own schema parsed `config`.
  definition: ChannelDefinition<any>;
  config: Record<string, unknown>;
  rules: NotificationRules;
}

/** Where a delivery goes: its channel's definition and parsed config, a reason to give it up, or null when the target is gone. */
export async function targetOf(
  delivery: Delivery,
  deps: {
    store: Pick<Store, 'channels'>;
    // biome-ignore lint/suspicious/noExplicitAny: each definition keeps its own config type.
    channels: Record<string, ChannelDefinition<any>>;
    subscribers?: ((delivery: Delivery) => Promise<SubscriberTarget>) | undefined;
  },
): Promise<Target | { dead: string } | null> {
  if (delivery.channelId === null) {
    // A page subscriber's: no rules of its own (it asked for the page's incidents and maintenance, all of them).
    const target = deps.subscribers ? await deps.subscribers(delivery) : null;
    return target && !('dead' in target) ? { ...target, rules: {} } : target;
  }
  const channel = await deps.store.channels.findById(delivery.channelId);
  if (!channel) return null; // deleted meanwhile: its deliveries went with it
  const definition = deps.channels[channel.type];
  if (!definition) return { dead: `unknown channel type ${channel.type}` };
  if (!channel.enabled) return { dead: 'the channel is disabled' };
  const parsed = definition.config.safeParse(channel.config);
  if (!parsed.success)
    return { dead: `invalid channel config: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
  return { label: channel.key, channel, definition, config: parsed.data, rules: channel.rules };
}

/** Where an organization's messages may go: its own policy, else the global one (`deny` for one not found). */
export function createGuards(
  store: Pick<Store, 'organizations'>,
  global: ProbeTargetPolicy | 'auto',
  maxAgeMs: number,
  monotonic: () => number = () => performance.now(),
): (organizationId: string) => Promise<TargetGuard> {
  /** The organizations' target policies, as last read (when), shared by the sends meanwhile. */
  let policies: { at: number; byOrganization: Promise<Map<string, ProbeTargetPolicy>> } | null = null;
  return async (organizationId) => {
    const now = monotonic();
    if (policies === null || now - policies.at > maxAgeMs) {
      const reading = store.organizations.list().then((organizations) => probeTargetPolicies(organizations, global));
      // A failed read is not kept: the next send reads again.
      reading.catch(() => {
        if (policies?.byOrganization === reading) policies = null;
      });
      policies = { at: now, byOrganization: reading };
    }
    return targetGuard((await policies.byOrganization).get(organizationId) ?? 'deny');
  };
}

export interface SendLimits {
  clock: Clock;
  smtp?: SmtpSettings | undefined;
  attemptTimeoutMs: number;
  /** Aborted when the stop grace is over: the send is given up (and not recorded). */
  stopping: AbortSignal;
}

/** One send through its definition: a thrown error is a retry, so is one that outlasts the time limit or the stop. */
export async function sendWithTimeout(
  limits: SendLimits,
  send: {
    definition: ChannelDefinition;
    event: NotificationEvent;
    config: Record<string, unknown>;
    attempt: number;
    guard: TargetGuard;
    recipients?: readonly MailRecipient[] | undefined;
  },
): Promise<SendOutcome> {
  const { stopping } = limits;
  const timeout = new AbortController();
  const signal = AbortSignal.any([timeout.signal, stopping]);
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const expired = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort();
      resolve({ kind: 'retry', status: null, error: 'timed out' });
    }, limits.attemptTimeoutMs);
    // A channel that ignores the signal does not hold the stop up.
    onStop = () => resolve({ kind: 'retry', status: null, error: 'stopped' });
    stopping.addEventListener('abort', onStop, { once: true });
  });
  try {
    const context = {
      signal,
      now: limits.clock.now(),
      attempt: send.attempt,
      guard: send.guard,
      smtp: limits.smtp,
      recipients: send.recipients,
    };
    const sent = send.definition.send(send.event, send.config, context).catch(
      (error: unknown): SendOutcome => ({
        kind: 'retry',
        status: null,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return await Promise.race([sent, expired]);
  } finally {
    clearTimeout(timer);
    if (onStop) stopping.removeEventListener('abort', onStop);
  }
}
