// Email over SMTP with nodemailer: one message with a text and an HTML part, a Message-ID derived from the event's id
// (a resend after a crash threads and dedupes with the first), handed over by mail/smtp-send.ts (4xx retry, 5xx dead).
// A channel without a `host` of its own goes through the system SMTP server (WARDEN_SMTP_URL, or `smtp:` in warden.yaml):
// always from the system's sender (the channel's `from` becomes Reply-To), with the organization named in the subject,
// to the recipients the system-mail screen lets through (notify/mail/system-mail.ts), each with its unsubscribe link.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { clip, eventFacts, footnote, pageLink, plainText, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import { type MailSender, mailSender, type SmtpServer, senderAddress } from '../mail/smtp.js';
import { type EmailMessage, sendMail } from '../mail/smtp-send.js';
import {
  defineChannel,
  type MailRecipient,
  type NotificationEvent,
  type NotificationKind,
  type SendContext,
  type SendOutcome,
} from './channel.js';
import { secretText } from './fields.js';
import { type ChannelText, cut, plainTextShape, type TextLimits } from './text-limits.js';

export { SMTP_TIMEOUT_MS } from '../mail/smtp.js';
export { type EmailMessage, sendMail, smtpErrorOutcome } from '../mail/smtp-send.js';

const email = (what: string) => z.email({ error: `expected the ${what} as an email address` }).max(254);

export const emailConfig = z
  .object({
    to: z.union([
      email('recipient'),
      z
        .array(email('recipient'))
        .min(1, { error: 'expected at least one recipient' })
        .max(20, { error: 'at most 20 recipients' }),
    ]),
    /** Required with your own host. With the system SMTP server the sender is always the system's (WARDEN_SMTP_FROM): this becomes Reply-To. */
    from: mailSender().optional(),
    /** Absent: the system SMTP server (WARDEN_SMTP_URL or `smtp:` in warden.yaml) with its sender, and the fields below are not used. */
    host: z.string().min(1, { error: 'expected the SMTP host' }).max(253).optional(),
    /** 587 by default; 465 when `secure` is tls. */
    port: z.number().int().min(1).max(65535).optional(),
    /** tls: implicit TLS (port 465); starttls: plain then STARTTLS, required; none: plain text, for a local relay. */
    secure: z.enum(['tls', 'starttls', 'none']).default('starttls'),
    username: z.string().min(1).max(320).optional(),
    password: secretText('SMTP password').optional(),
    tlsRejectUnauthorized: z.boolean().default(true),
  })
  .strict()
  .refine((config) => config.password === undefined || config.username !== undefined, {
    error: 'a password needs a username',
    path: ['username'],
  })
  .refine((config) => config.host === undefined || config.from !== undefined, {
    error: 'expected the sender (from) with your own SMTP host',
    path: ['from'],
  });

export type EmailConfig = z.output<typeof emailConfig>;

const PREFIX: Record<NotificationKind, string> = {
  'monitor.down': 'DOWN',
  'monitor.recovered': 'UP',
  'monitor.degraded': 'DEGRADED',
  'monitor.flapping': 'FLAPPING',
  'monitor.reminder': 'STILL DOWN',
  'players.alert': 'PLAYERS',
  'players.ok': 'PLAYERS OK',
  'game.changed': 'CHANGED',
  'relay.offline': 'RELAY OFFLINE',
  'relay.back': 'RELAY BACK',
  'incident.created': 'INCIDENT',
  'incident.updated': 'INCIDENT UPDATE',
  'incident.resolved': 'RESOLVED',
  'maintenance.started': 'MAINTENANCE',
  'maintenance.ended': 'MAINTENANCE ENDED',
  'tls.expiring': 'TLS EXPIRING',
  'tls.expired': 'TLS EXPIRED',
  test: 'TEST',
};

/** Who a message goes to and from; `from` is required by the time a message is built. */
export interface MailEnvelope {
  to: string | string[];
  from?: MailSender | undefined;
}

/** What a message adds to the event: see buildEmail. */
export interface EmailExtras {
  unsubscribeUrl?: string | undefined;
  messageKey?: string | undefined;
  /**
   * Sent through the system SMTP server for this organization (its name): the subject starts `[Warden · name]` and a
   * line says the organization wrote what the message says, so nobody takes it for the operator's own word.
   */
  onBehalfOf?: string | undefined;
  replyTo?: MailSender | undefined;
}

/** How much of an organization's name a subject shows. */
const ORGANIZATION_NAME_CHARS = 60;

/** A subject of at most 200 characters; the text keeps Warden's words (the reason at most REASON_CHARS). */
const TEXT_LIMITS: TextLimits = { title: 200 };

/** The subject a channel's mail has (its kind in brackets, then the title) and its plain text. */
function emailText(event: NotificationEvent, limits: TextLimits): ChannelText {
  const subject = cut(`[${PREFIX[event.kind]}] ${event.title}`.replace(/\s+/g, ' ').trim(), limits.title);
  const { body, clipped } = plainTextShape(true)(event, limits);
  return { title: subject.text, body, clipped: { title: subject.clipped, body: clipped.body } };
}

/**
 * The mail for one event. `unsubscribeUrl` (page subscribers, channel recipients on the system server) adds one-click
 * List-Unsubscribe (RFC 8058); `messageKey` makes the Message-ID differ per recipient of the same event (each gets its
 * own message).
 */
export function buildEmail(event: NotificationEvent, config: MailEnvelope, extra: EmailExtras = {}): EmailMessage {
  if (config.from === undefined) throw new Error('an email needs a sender (from)');
  const prefix = PREFIX[event.kind];
  const headers: Record<string, string> = { 'X-Warden-Event': event.kind, 'Auto-Submitted': 'auto-generated' };
  const unsubscribe = extra.unsubscribeUrl && isWebUrl(extra.unsubscribeUrl) ? extra.unsubscribeUrl : undefined;
  if (unsubscribe) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  const organization =
    extra.onBehalfOf === undefined
      ? undefined
      : clip(extra.onBehalfOf.replace(/\s+/g, ' ').trim(), ORGANIZATION_NAME_CHARS);
  const disclaimer = organization === undefined ? undefined : onBehalfOfLine(organization);
  let text = plainText(event);
  if (disclaimer) text += `\n\n${disclaimer}`;
  if (unsubscribe) text += `\n\nUnsubscribe: ${unsubscribe}`;
  const subject = `${organization === undefined ? '' : `[Warden · ${organization}] `}[${prefix}] ${event.title}`;
  return {
    from: namedSender(config.from),
    to: typeof config.to === 'string' ? [config.to] : config.to,
    subject: cut(subject.replace(/\s+/g, ' ').trim(), TEXT_LIMITS.title).text,
    text,
    html: renderHtml(event, prefix, unsubscribe, disclaimer),
    messageId: messageId(extra.messageKey ? `${event.id}.${extra.messageKey}` : event.id, senderAddress(config.from)),
    date: new Date(event.at),
    headers,
    ...(unsubscribe ? { list: { unsubscribe } } : {}),
    ...(extra.replyTo !== undefined ? { replyTo: namedSender(extra.replyTo) } : {}),
  };
}

function namedSender(sender: MailSender): string | { name: string; address: string } {
  return typeof sender === 'string' ? sender : { name: sender.name ?? 'Warden', address: sender.address };
}

/** The line a message sent for an organization through the system server carries. */
export function onBehalfOfLine(organization: string): string {
  return `Warden sent this notification for the organization "${organization}", which wrote what it says.`;
}

/** `<warden.ID@sender-domain>`: the same for every send of one event. Ids with other characters are hashed. */
export function messageId(eventId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1).toLowerCase() || 'warden.invalid';
  const local = /^[A-Za-z0-9._-]{1,64}$/.test(eventId)
    ? eventId
    : createHash('sha256').update(eventId).digest('hex').slice(0, 40);
  return `<warden.${local}@${domain}>`;
}

function renderHtml(
  event: NotificationEvent,
  prefix: string,
  unsubscribe: string | undefined,
  disclaimer: string | undefined,
): string {
  const look = SEVERITY_LOOK[event.severity];
  const colour = `#${look.colour.toString(16).padStart(6, '0')}`;
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const rows = eventFacts(event)
    .filter((fact) => fact.name !== 'Page')
    .map(
      (fact) =>
        `<tr><td style="${cell};color:#6b7280;white-space:nowrap">${escapeHtml(fact.name)}</td><td style="${cell};color:#111827">${escapeHtml(fact.value)}</td></tr>`,
    )
    .join('');
  const page = pageLink(event);
  const parts = [
    `<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#111827;max-width:600px">`,
    `<p style="margin:0 0 12px;padding:10px 14px;border-left:4px solid ${colour};background:#f9fafb;font-size:16px;font-weight:600;color:${colour}">${escapeHtml(prefix)} · ${escapeHtml(event.title)}</p>`,
    event.reason
      ? `<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(clip(event.reason, REASON_CHARS))}</p>`
      : '',
    rows ? `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>` : '',
    page && isWebUrl(page.url)
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(page.url)}" style="display:inline-block;padding:8px 14px;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none;font-weight:600">View ${escapeHtml(page.title)}</a></p>`
      : '',
    disclaimer ? `<p style="margin:16px 0 0;font-size:12px;color:#6b7280">${escapeHtml(disclaimer)}</p>` : '',
    `<p style="margin:16px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footnote(event))}`,
    unsubscribe ? ` · <a href="${escapeHtml(unsubscribe)}" style="color:#6b7280">Unsubscribe</a>` : '',
    `</p></div>`,
  ];
  return `<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">${parts.join('')}</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

async function send(event: NotificationEvent, config: EmailConfig, ctx: SendContext): Promise<SendOutcome> {
  if (config.host === undefined) return sendThroughSystemServer(event, config, ctx);
  const server: SmtpServer = { ...config, host: config.host };
  // The channel's own host is the organization's to aim, so it is reached under its target policy; the system server is the operator's.
  return sendMail(server, buildEmail(event, { to: config.to, from: config.from }), ctx.signal, ctx.guard);
}

/** Whether a channel's mail goes through the system SMTP server: an email channel without a host of its own. */
export function usesSystemSmtp(type: string, config: Record<string, unknown>): boolean {
  return type === 'email' && (config.host === undefined || config.host === null);
}

/** The channel's recipients, as listed. */
export function recipientsOf(config: { to: string | string[] }): string[] {
  return typeof config.to === 'string' ? [config.to] : config.to;
}

/**
 * Through the system server: from its sender, whatever the channel says (the channel's `from` becomes Reply-To), with
 * the organization named. To the recipients the screen chose (ctx.recipients), else every address of `to`. Recipients
 * with an unsubscribe link get a message each (their own link; nobody sees the others); the rest one message together.
 */
async function sendThroughSystemServer(
  event: NotificationEvent,
  config: EmailConfig,
  ctx: SendContext,
): Promise<SendOutcome> {
  const smtp = ctx.smtp;
  if (!smtp)
    return {
      kind: 'dead',
      status: null,
      error: 'no SMTP server: give the channel a host, or set the system one (WARDEN_SMTP_URL and WARDEN_SMTP_FROM)',
    };
  const recipients: readonly MailRecipient[] = ctx.recipients ?? recipientsOf(config).map((address) => ({ address }));
  const extras: EmailExtras = { onBehalfOf: event.organization.name, replyTo: config.from };
  const together = recipients.filter((r) => r.unsubscribeUrl === undefined).map((r) => r.address);
  const messages = [
    ...(together.length > 0 ? [buildEmail(event, { to: together, from: smtp.from }, extras)] : []),
    ...recipients
      .filter((r) => r.unsubscribeUrl !== undefined)
      .map((r) =>
        buildEmail(
          event,
          { to: r.address, from: smtp.from },
          { ...extras, unsubscribeUrl: r.unsubscribeUrl, messageKey: r.address },
        ),
      ),
  ];
  if (messages.length === 0) return { kind: 'dead', status: null, error: 'no recipient to send to' };
  let outcome: SendOutcome = { kind: 'dead', status: null, error: 'not sent' };
  // One after the other: a failure stops the rest, and the retry sends all again under the same Message-IDs.
  for (const message of messages) {
    outcome = await sendMail(smtp, message, ctx.signal);
    if (outcome.kind !== 'sent') return outcome;
  }
  return outcome;
}

export const emailChannel = defineChannel({
  type: 'email',
  label: 'Email (SMTP)',
  config: emailConfig,
  secrets: ['password'],
  targets: ['host', 'port', 'to'],
  // One SMTP connection per message; servers cap connections per client.
  maxInFlight: 4,
  textLimits: TEXT_LIMITS,
  text: emailText,
  send,
});
