// What a notification channel is: a config schema, its secret and target fields, and send(event) → outcome. One file per
// channel in notify/channels/ plus one line in notify/channels/registry.ts; the dispatcher owns retries, backoff and the log.
import { z } from 'zod';
import type { TargetGuard } from '../../net/target-guard.js';
import type { SmtpSettings } from '../mail/smtp.js';
import {
  type MessageTemplate,
  messageTemplateSchema,
  type RenderedMessage,
  renderMessage,
} from '../templates/template.js';
import { reasonText, type TextLimits, type TextShape } from './text-limits.js';

/** What happened, as every channel receives it. `id` is stable per event: the `webhook-id` receivers dedupe on. */
/** Every kind of event, in the order docs list them; `test` is what `POST …/test` sends. */
export const NOTIFICATION_KINDS = [
  'monitor.down',
  'monitor.recovered',
  'monitor.degraded',
  'monitor.flapping',
  'monitor.reminder',
  'players.alert',
  'players.ok',
  'game.changed',
  'relay.offline',
  'relay.back',
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'maintenance.started',
  'maintenance.ended',
  'tls.expiring',
  'tls.expired',
  'test',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationSeverity = 'critical' | 'warning' | 'info' | 'ok';

export interface NotificationEvent {
  id: string;
  kind: NotificationKind;
  /** When it happened (epoch ms). */
  at: number;
  severity: NotificationSeverity;
  /** One line a person reads first: "Lobby is down", "Lobby is back up after 4 min". */
  title: string;
  /** What we know about why (the check's error), or the incident's message; null when there is nothing to add. */
  reason: string | null;
  organization: { key: string; name: string };
  monitor?: {
    id: string;
    key: string;
    name: string;
    type: string;
    state: 'up' | 'down' | 'degraded' | 'unknown' | 'paused' | 'maintenance';
    previousState: string;
    /** How long it was down, for `monitor.recovered`. */
    downtimeMs?: number | null;
    /** Game servers: players online and the maximum, when the last check told. */
    players?: { online: number; max: number | null } | null;
  };
  relay?: { key: string; name: string };
  incident?: { id: string; title: string; status: string; impact: string; message: string | null };
  maintenance?: { id: string; title: string; startsAt: number; endsAt: number };
  tls?: { host: string; expiresAt: number; daysLeft: number };
  /** `monitor.flapping`: how many changes since when; `ended` on the summary once it is stable again. */
  flap?: { changes: number; sinceAt: number; ended: boolean };
  /** `players.alert` and `players.ok`: which rule (full, queue, band) and since when its condition held. */
  playerRule?: { rule: string; since: number };
  /** `game.changed`: which field of the result changed (version, map), from what to what. */
  gameChange?: { field: string; from: string; to: string };
  /** `monitor.reminder`: since when the monitor has been down; also a down alert held back behind a parent, sent later. */
  downSince?: number;
  /** `monitor.down`: how many monitors depend on this one (docs/monitors.md, "Dependencies"): their alerts are held back. */
  dependents?: number;
  /**
   * A monitor's open alert (down, degraded, reminders, escalation steps): its id and the signed link that acknowledges
   * it (null when the server does not know its public address). `escalationStep` on a policy's step.
   */
  alert?: { id: string; acknowledgeUrl: string | null; escalationStep?: number };
  /** The status pages that show what happened (public address each), first one the link channels use. */
  pages: { slug: string; title: string; url: string }[];
  /** The dashboard's address, when the server knows its public URL (`{{links.dashboard}}` in templates). */
  dashboardUrl?: string;
  /**
   * Set when the channel has a message template (docs/notifications.md, "Message templates"): the parts it rendered.
   * defineChannel has already put them in `title` and `reason`; with a body, eventFacts adds no facts of its own.
   */
  message?: RenderedMessage;
}

/** What one attempt came to; the dispatcher decides what happens next. */
export type SendOutcome =
  | { kind: 'sent'; status: number | null; answer?: string }
  /** Try again later: a network error, 5xx, or 429 with its Retry-After (afterMs). */
  | { kind: 'retry'; status: number | null; error: string; afterMs?: number; answer?: string }
  /** Will never work as sent (4xx but 429, an address the target policy refuses): marked dead with the answer kept. */
  | { kind: 'dead'; status: number | null; error: string; answer?: string };

export interface SendContext {
  /** Aborted when the attempt's time is up or the server shuts down. */
  signal: AbortSignal;
  /** When the attempt is made (epoch ms): signatures and timestamps use it. */
  now: number;
  /** How many attempts came before this one (0 on the first). */
  attempt: number;
  /**
   * Where the organization's messages may go: its probe-target policy. A channel connects only through postRequest
   * (http-send.ts) and sendMail (channels/email.ts), which connect through it; test/contracts/notify-targets fails otherwise.
   */
  guard: TargetGuard;
  /** The system SMTP server, when one is set: email channels without a host of their own send through it. */
  smtp?: SmtpSettings | undefined;
  /**
   * Email channels on the system SMTP server: whom this message goes to, as the system-mail screen decided (the
   * recipients who confirmed, each with their one-click unsubscribe link). Absent: every address of the channel's `to`.
   */
  recipients?: readonly MailRecipient[] | undefined;
}

/** One recipient of a message through the system SMTP server. */
export interface MailRecipient {
  address: string;
  /** Its own List-Unsubscribe link (RFC 8058): such recipients get a message each. */
  unsubscribeUrl?: string | undefined;
}

export interface ChannelDefinition<Config extends Record<string, unknown> = Record<string, unknown>> {
  type: string;
  label: string;
  config: z.ZodType<Config>;
  /** Config fields that hold secrets: redacted in API answers and logs, re-sent when a target changes. */
  secrets: readonly (keyof Config & string)[];
  /** Config fields that say where the message goes (changing one requires the secrets again). */
  targets: readonly (keyof Config & string)[];
  /**
   * Sends in flight at once to one channel of this type (each monitor's events still one at a time, in order): low
   * where the receiver rate-limits per webhook or bot (Discord, Slack, Teams, Telegram), higher for one's own endpoints.
   * The dispatcher's `channelInFlight` when absent.
   */
  maxInFlight?: number;
  /**
   * A secret config field Warden makes when a channel created through the API or the dashboard leaves it out (the
   * webhook's signing secret): the create answer shows it once, as `secret`. warden.yaml sets its own.
   */
  generatedSecret?: { field: keyof Config & string; generate: () => string };
  /**
   * How the channel takes its message template (`config.template`, which defineChannel adds to every type): `text`
   * (the default) sends the rendered title and body as the event's `title` and `reason`; `attach` leaves the event as
   * it is and adds `message` (the webhook's JSON payload carries both).
   */
  templateOutput?: 'text' | 'attach';
  /**
   * The most characters of the title and body this channel sends (its receiver's limits, or Warden's where lower):
   * `{}` when it cuts nothing of its own. The docs' table and the template preview show them.
   */
  textLimits: TextLimits;
  /**
   * How it makes its title and body (text-limits.ts): the send path builds its message from this shape under
   * `textLimits`, and the template preview shows the same. Default: the title and the reason.
   */
  text: TextShape;
  send(event: NotificationEvent, config: Config, ctx: SendContext): Promise<SendOutcome>;
}

/** A channel as its file declares it: `secrets`, `targets`, `text` and `textLimits` may be left to the defaults. */
export type ChannelDeclaration<Config extends Record<string, unknown>> = Omit<
  ChannelDefinition<Config>,
  'secrets' | 'targets' | 'text' | 'textLimits'
> &
  Partial<Pick<ChannelDefinition<Config>, 'secrets' | 'targets' | 'text' | 'textLimits'>>;

/** Config fields that hold a credential wherever a channel has them. */
const SECRET_FIELDS = ['password', 'token', 'botToken', 'secret'];

/**
 * Declares a channel, checking its field lists against its config's keys. Defaults: `secrets` the config's credential
 * fields (password, token, botToken, secret), `targets` its `url` when it has one, `textLimits` none, `text` the title
 * and the reason.
 */
export function defineChannel<Config extends Record<string, unknown>>(
  declaration: ChannelDeclaration<Config>,
): ChannelDefinition<Config> {
  const fields = fieldsOf(declaration.config) as (keyof Config & string)[];
  return {
    ...declaration,
    config: withTemplate(declaration.config),
    secrets: declaration.secrets ?? fields.filter((field) => SECRET_FIELDS.includes(field)),
    targets: declaration.targets ?? fields.filter((field) => field === 'url'),
    textLimits: declaration.textLimits ?? {},
    text: declaration.text ?? reasonText,
    send: (event, config, ctx) => {
      const template = (config as { template?: MessageTemplate }).template;
      const sent = template ? templated(event, template, declaration.templateOutput ?? 'text') : event;
      return declaration.send(sent, config, ctx);
    },
  };
}

/** Every type's config takes an optional `template` (its refinements kept). */
function withTemplate<Config>(config: z.ZodType<Config>): z.ZodType<Config> {
  if (!(config instanceof z.ZodObject)) return config;
  return config.safeExtend({ template: messageTemplateSchema.optional() }) as unknown as z.ZodType<Config>;
}

/** The event as a channel with a template sends it. */
export function templated(
  event: NotificationEvent,
  template: MessageTemplate,
  output: 'text' | 'attach',
): NotificationEvent {
  return withMessage(event, renderMessage(template, event), output);
}

/** The event carrying a rendered message: in `title` and `reason` too for a `text` channel. */
export function withMessage(
  event: NotificationEvent,
  message: RenderedMessage,
  output: 'text' | 'attach',
): NotificationEvent {
  if (output === 'attach') return { ...event, message };
  return {
    ...event,
    message,
    title: message.title || event.title,
    reason: message.body === undefined ? event.reason : message.body || null,
  };
}

/** The fields of a config schema (refinements keep the object's shape). */
function fieldsOf(config: z.ZodType): string[] {
  return config instanceof z.ZodObject ? Object.keys(config.shape) : [];
}
