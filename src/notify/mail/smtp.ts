// The system's SMTP server (WARDEN_SMTP_URL + WARDEN_SMTP_FROM, or `smtp:` in warden.yaml): what page subscribers'
// mail and email channels without a host of their own go through, and the nodemailer options every send builds.
import { z } from 'zod';

/** Bound on each SMTP phase: connecting, the greeting, and silence on the socket. */
export const SMTP_TIMEOUT_MS = 10_000;

/**
 * How the connection is protected. tls: implicit TLS (port 465); starttls: plain then STARTTLS, required; auto: STARTTLS
 * when the server offers it (smtp:// URLs); none: plain text, for a local relay.
 */
export const SMTP_SECURITY = ['tls', 'starttls', 'auto', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** Where mail is handed over, and how. */
export interface SmtpServer {
  host: string;
  /** 587 by default; 465 when `secure` is tls. */
  port?: number | undefined;
  secure: SmtpSecurity;
  username?: string | undefined;
  password?: string | undefined;
  tlsRejectUnauthorized: boolean;
}

export type MailSender = string | { address: string; name?: string | undefined };

/** The system SMTP settings: a server and the sender of the mail Warden sends on its own behalf. */
export interface SmtpSettings extends SmtpServer {
  from: MailSender;
}

const address = (what: string) => z.email({ error: `expected the ${what} as an email address` }).max(254);

export const mailSender = (what = 'sender') =>
  z.union([address(what), z.object({ address: address(what), name: z.string().min(1).max(100).optional() }).strict()]);

/** `smtp:` in warden.yaml: the same fields as an email channel's server, and the sender. */
export const smtpSectionSchema = z
  .object({
    host: z.string().min(1, { error: 'expected the SMTP host' }).max(253),
    port: z.number().int().min(1).max(65535).optional(),
    secure: z
      .enum(SMTP_SECURITY)
      .default('auto')
      .describe('tls (port 465), starttls (required), auto (STARTTLS when offered, the default) or none.'),
    username: z.string().min(1).max(320).optional(),
    password: z.string().min(1).max(4096).optional().describe('Use ${ENV_VAR}; never logged.'),
    tlsRejectUnauthorized: z.boolean().default(true),
    from: mailSender().describe(
      'The sender of the mail Warden sends itself (page subscribers, email channels without their own server).',
    ),
  })
  .strict()
  .refine((s) => s.password === undefined || s.username !== undefined, {
    error: 'a password needs a username',
    path: ['username'],
  })
  .describe('The system SMTP server; WARDEN_SMTP_URL and WARDEN_SMTP_FROM take precedence over it.');

export type SmtpSection = z.output<typeof smtpSectionSchema>;

/**
 * Reads WARDEN_SMTP_URL: `smtp://[user:pass@]host[:port]` (STARTTLS when the server offers it) or `smtps://…` (implicit
 * TLS); `?secure=starttls|none` and `?tlsRejectUnauthorized=false` adjust it. User and password are percent-decoded.
 * Throws a message naming what is wrong, never the password.
 */
export function parseSmtpUrl(text: string, from: MailSender): SmtpSettings {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('expected smtp://user:password@host:port or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`expected an smtp:// or smtps:// URL, not ${url.protocol}//`);
  if (url.hostname === '') throw new Error('the URL names no host');
  const secureParam = url.searchParams.get('secure');
  if (secureParam !== null && !['starttls', 'none', 'auto', 'tls'].includes(secureParam))
    throw new Error('secure= must be tls, starttls, auto or none');
  const secure: SmtpSecurity = (secureParam as SmtpSecurity | null) ?? (url.protocol === 'smtps:' ? 'tls' : 'auto');
  const reject = url.searchParams.get('tlsRejectUnauthorized');
  if (reject !== null && reject !== 'true' && reject !== 'false')
    throw new Error('tlsRejectUnauthorized= must be true or false');
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? undefined : Number(url.port),
    secure,
    username,
    password,
    tlsRejectUnauthorized: reject !== 'false',
    from,
  };
}

/** For logs: where mail goes, without the password. */
export function describeSmtp(settings: SmtpServer): string {
  const user = settings.username ? `${encodeURIComponent(settings.username)}@` : '';
  return `${settings.secure === 'tls' ? 'smtps' : 'smtp'}://${user}${settings.host}:${portOf(settings)} (${settings.secure})`;
}

export function portOf(server: SmtpServer): number {
  return server.port ?? (server.secure === 'tls' ? 465 : 587);
}

/** The address part of a sender. */
export function senderAddress(from: MailSender): string {
  return typeof from === 'string' ? from : from.address;
}

/** nodemailer's transport options for a server: bounded in time, no file or URL access, TLS 1.2 at least. */
export function transportOptions(server: SmtpServer) {
  return {
    host: server.host,
    port: portOf(server),
    secure: server.secure === 'tls',
    requireTLS: server.secure === 'starttls',
    ignoreTLS: server.secure === 'none',
    ...(server.username ? { auth: { user: server.username, pass: server.password ?? '' } } : {}),
    tls: { rejectUnauthorized: server.tlsRejectUnauthorized, minVersion: 'TLSv1.2' as const },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    dnsTimeout: SMTP_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  };
}
