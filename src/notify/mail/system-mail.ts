// What an email channel without a host of its own may do with the operator's system SMTP server, judged before each
// send (the dispatcher's alerts, and tests): refused (WARDEN_SMTP_TENANTS=deny), held (a limit of SYSTEM_MAIL_LIMITS is
// reached), or sent, to every recipient of a trusted channel or only to those who confirmed. An address never asked
// (or whose link expired) gets a confirmation mail instead, at most one per link's lifetime and organization.
import type { Clock } from '../../domain/clock.js';
import { newId } from '../../domain/ids.js';
import type { NotificationChannel } from '../../domain/notification.js';
import { DEMO_ORGANIZATION_KEY, type Organization } from '../../domain/organization.js';
import type { ManagedBy } from '../../domain/ownership.js';
import {
  type ChannelRecipient,
  newRecipientToken,
  recipientAddress,
  recipientState,
  type SmtpTenantMode,
  SYSTEM_MAIL_LIMITS,
  type SystemMailLimits,
  type SystemMailPolicy,
  systemMailPolicy,
} from '../../domain/system-mail.js';
import { hashSecret } from '../../domain/tokens.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/index.js';
import type { MailRecipient } from '../channels/channel.js';
import { usesSystemSmtp } from '../channels/email.js';
import { buildRecipientConfirmationMail } from './recipient-mail.js';
import { SMTP_TIMEOUT_MS, type SmtpSettings } from './smtp.js';
import { sendMail } from './smtp-send.js';
import type { SystemMailDecision, SystemMailLimiter } from './system-mail-limits.js';

/** What may happen to one message of a channel on the system server. */
export type Screening =
  /** Send it: to `recipients` when given (those who confirmed), else to every address; `note` says who was left out. */
  | { kind: 'send'; recipients?: MailRecipient[]; note: string | null }
  /** Nothing to send: no recipient confirmed (yet). */
  | { kind: 'skip'; reason: string }
  /** A limit is reached: try again in `retryAfterMs`. */
  | { kind: 'hold'; retryAfterMs: number; reason: string }
  /** The operator refuses this channel the system server. */
  | { kind: 'refuse'; reason: string };

export interface SystemMail {
  readonly mode: SmtpTenantMode;
  /** Null when the channel does not use the system server (another type, a host of its own, or no system server set). */
  screen(channel: NotificationChannel, purpose: 'alert' | 'test'): Promise<Screening | null>;
  /**
   * The policy a channel written by `managedBy` gets now. `store`: the caller's, when it reads inside a transaction
   * (SQLite's one connection would wait for that transaction to end).
   */
  policyOf(channel: { managedBy: ManagedBy }, store?: Store): Promise<SystemMailPolicy>;
  /**
   * Whether one more invitation mail of the organization may go through the system server now: invitations name the
   * organization and the inviter, both the tenant's words, so they count like a channel of the organization's (one
   * for all its invitations) against the same limits. Refused: why, for the log.
   */
  invitationMail(organizationId: string): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

export interface SystemMailDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  smtp: SmtpSettings | undefined;
  mode: SmtpTenantMode;
  /** The service's public address, for the links. */
  baseUrl: () => string;
  limiter: SystemMailLimiter;
  limits?: SystemMailLimits | undefined;
}

/** What the refusal says, naming the field a tenant must fill in instead. */
export const SYSTEM_SMTP_REFUSED =
  'this server lets no channel made through the API or the dashboard use its system SMTP server (WARDEN_SMTP_TENANTS=deny): give the channel an SMTP server of its own (config.host, with from)';

export function recipientConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notifications/confirm?token=${encodeURIComponent(token)}`;
}

export function recipientUnsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** How one address not yet confirmed fared: mailed a link now, waiting on an earlier one, not asked (why), or unsubscribed. */
type Asking = 'asked' | 'pending' | 'unsubscribed' | 'limited' | 'full' | 'failed';

export function createSystemMail(deps: SystemMailDeps): SystemMail {
  const limits = deps.limits ?? SYSTEM_MAIL_LIMITS;
  const { store, clock } = deps;

  async function organizations(from: Store = store): Promise<Organization[]> {
    return from.organizations.list();
  }

  function policyAmong(all: readonly Organization[], channel: { managedBy: ManagedBy }): SystemMailPolicy {
    const counted = all.filter((organization) => organization.key !== DEMO_ORGANIZATION_KEY).length;
    return systemMailPolicy(deps.mode, channel, counted);
  }

  return {
    mode: deps.mode,
    async invitationMail(organizationId) {
      const decision = await deps.limiter.take(
        { channelId: `invitations:${organizationId}`, organizationId, test: false },
        clock.now(),
      );
      return decision.allowed ? decision : { allowed: false, reason: limitReached(decision) };
    },
    async policyOf(channel, from) {
      return policyAmong(await organizations(from), channel);
    },
    async screen(channel, purpose) {
      if (!deps.smtp || !usesSystemSmtp(channel.type, channel.config)) return null;
      const all = await organizations();
      const policy = policyAmong(all, channel);
      if (policy === 'refused') return { kind: 'refuse', reason: SYSTEM_SMTP_REFUSED };
      const charge = { channelId: channel.id, organizationId: channel.organizationId, test: purpose === 'test' };
      if (policy === 'trusted') {
        const decision = await deps.limiter.take(charge, clock.now());
        return decision.allowed ? { kind: 'send', note: null } : held(decision);
      }
      const addresses = addressesOf(channel.config);
      const now = clock.now();
      const rows = new Map(
        (await store.recipients.findByAddresses(channel.organizationId, addresses)).map((row) => [row.address, row]),
      );
      const confirmed = addresses.flatMap((address) => {
        const row = rows.get(address);
        return row && recipientState(row, now) === 'confirmed' ? [row] : [];
      });
      // The message's own place first: when the window is spent, nothing goes, confirmation mails included.
      if (confirmed.length > 0) {
        const decision = await deps.limiter.take(charge, now);
        if (!decision.allowed) return held(decision);
      }
      const organization = all.find((o) => o.id === channel.organizationId)?.name ?? '';
      // One deadline for the confirmation mails of this send: a server that hangs holds it up once, not per address.
      const signal = AbortSignal.timeout(SMTP_TIMEOUT_MS);
      const fared: Asking[] = [];
      for (const address of addresses) {
        const row = rows.get(address);
        const state = recipientState(row, now);
        if (state === 'confirmed') continue;
        if (state === 'unsubscribed' || state === 'pending') fared.push(state);
        else fared.push(await ask(deps, limits, channel, organization, address, row, signal));
      }
      const note = fared.length === 0 ? null : skippedNote(fared, addresses.length);
      if (confirmed.length === 0) return { kind: 'skip', reason: `no confirmed recipient: ${note}` };
      const base = deps.baseUrl();
      return {
        kind: 'send',
        recipients: confirmed.map((row) => ({
          address: row.address,
          unsubscribeUrl: recipientUnsubscribeUrl(base, row.unsubscribeToken),
        })),
        note,
      };
    },
  };
}

/** Which limit a refused charge met, and when the next message may go. */
function limitReached(decision: Exclude<SystemMailDecision, { allowed: true }>): string {
  return `${decision.limit} (next in ${Math.ceil(decision.retryAfterMs / 1000)} s)`;
}

function held(decision: Exclude<SystemMailDecision, { allowed: true }>): Screening {
  return { kind: 'hold', retryAfterMs: decision.retryAfterMs, reason: `held: ${limitReached(decision)}` };
}

/** Mails a new confirmation link to an address, when it may be asked now and the limits leave room. */
async function ask(
  deps: SystemMailDeps,
  limits: SystemMailLimits,
  channel: NotificationChannel,
  organization: string,
  address: string,
  known: ChannelRecipient | undefined,
  signal: AbortSignal,
): Promise<Asking> {
  const { store, clock, logger } = deps;
  const smtp = deps.smtp as SmtpSettings;
  const now = clock.now();
  if ((await store.recipients.countPending(channel.organizationId, now)) >= limits.pendingPerOrganization)
    return 'full';
  const decision = await deps.limiter.take(
    { channelId: channel.id, organizationId: channel.organizationId, test: false },
    now,
  );
  if (!decision.allowed) return 'limited';
  const id = known?.id ?? newId('rcp');
  const token = newRecipientToken(id);
  const confirmTokenHash = hashSecret(token);
  const row = await store.recipients.ask(
    channel.organizationId,
    address,
    { id, unsubscribeToken: newRecipientToken(id), confirmTokenHash, expiresAt: now + limits.confirmWithinMs },
    now,
  );
  // Asked meanwhile by another send (whose link is live now), or made by one under another id: no second mail.
  if (!row) return 'pending';
  if (row.id !== id) {
    await store.recipients.unask(row.id, confirmTokenHash);
    return 'pending';
  }
  const base = deps.baseUrl();
  const mail = buildRecipientConfirmationMail({
    to: address,
    from: smtp.from,
    organization,
    service: base || 'this server',
    confirmUrl: recipientConfirmUrl(base, token),
    unsubscribeUrl: recipientUnsubscribeUrl(base, row.unsubscribeToken),
    validHours: limits.confirmWithinMs / 3_600_000,
    now,
  });
  const outcome = await sendMail(smtp, mail, signal);
  if (outcome.kind !== 'sent') {
    // Not mailed: the address may be asked again at the next send.
    await store.recipients.unask(row.id, confirmTokenHash);
    logger.warn(
      { channel: channel.key, recipient: row.id, error: outcome.error, status: outcome.status },
      'a channel recipient confirmation mail was not sent',
    );
    return 'failed';
  }
  logger.info({ channel: channel.key, recipient: row.id }, 'channel recipient asked to confirm');
  return 'asked';
}

/** The channel's recipients as stored (a config that no longer parses has none: its send fails on its own). */
export function addressesOf(config: Record<string, unknown>): string[] {
  const to = config['to'];
  const listed =
    typeof to === 'string' ? [to] : Array.isArray(to) ? to.filter((t): t is string => typeof t === 'string') : [];
  return [...new Set(listed.map(recipientAddress))];
}

/** "2 of 3 recipients skipped as unconfirmed (1 asked to confirm now, 1 awaiting confirmation)", and the unsubscribed. */
function skippedNote(fared: readonly Asking[], total: number): string {
  const count = (...kinds: Asking[]) => fared.filter((f) => kinds.includes(f)).length;
  const unconfirmed = fared.length - count('unsubscribed');
  const why = [
    [count('asked'), 'asked to confirm now'],
    [count('pending'), 'awaiting confirmation'],
    [count('limited'), 'not asked yet: the system SMTP limit is reached'],
    [count('full'), 'not asked yet: too many addresses of the organization await confirmation'],
    [count('failed'), 'not asked yet: the confirmation mail failed'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${what}`);
  const parts = [
    ...(unconfirmed > 0
      ? [`${unconfirmed} of ${total} recipient${total === 1 ? '' : 's'} skipped as unconfirmed (${why.join(', ')})`]
      : []),
    ...(count('unsubscribed') > 0 ? [`${count('unsubscribed')} unsubscribed`] : []),
  ];
  return parts.join('; ');
}
