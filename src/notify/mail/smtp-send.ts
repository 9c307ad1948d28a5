// Handing one message to an SMTP server, and what its reply (or the failure to get one) comes to: 2xx sent, 4xx and
// network trouble retry, 5xx, bad config and refused addresses dead. Every mail Warden sends goes through sendMail.
import { TARGET_REFUSED, type TargetGuard } from '../../net/target-guard.js';
import type { SendOutcome } from '../channels/channel.js';
import { ANSWER_CHARS, unreached } from '../channels/outcome.js';
import { clip } from '../events/format.js';
import type { SmtpServer } from './smtp.js';
import { smtpTransport } from './smtp-connect.js';

/** The message as nodemailer takes it. */
export interface EmailMessage {
  from: string | { name: string; address: string };
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
  /** nodemailer writes `List-Unsubscribe: <url>` from it. */
  list?: { unsubscribe: string };
  replyTo?: string | { name: string; address: string };
  /** Files sent with it (the monthly report's CSV). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

/** What nodemailer puts on its errors. */
interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/** Errors without an SMTP reply that will not go away by trying again: the config is wrong. */
const PERMANENT_CODES = new Set(['EAUTH', 'ENOAUTH', 'EENVELOPE', 'ECONFIG', 'EREQUIRETLS', 'EMAXRECIPIENTS']);

/** Codes of a connection that failed or never opened (no SMTP reply): classified as outcome.ts classes them. */
const UNREACHED_CODES = new Set([
  TARGET_REFUSED,
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ECONNECTION',
  'ESOCKET',
]);

/** An SMTP error as an outcome: 4xx replies and network trouble retry, 5xx replies, bad config and refused addresses are dead. */
export function smtpErrorOutcome(error: unknown, signal?: AbortSignal): SendOutcome {
  const err = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpError;
  const status = typeof err.responseCode === 'number' ? err.responseCode : null;
  const answer = err.response ? clip(err.response, ANSWER_CHARS) : undefined;
  const withAnswer = answer ? { answer } : {};
  if (signal?.aborted || err.code === 'EABORT') return { kind: 'retry', status, error: 'timed out', ...withAnswer };
  // No reply from a server (refused by the target policy, or the connection failed): nothing of one to keep.
  if (status === null && err.code !== undefined && UNREACHED_CODES.has(err.code))
    return unreached(err.code, err.message ?? '');
  const message = `${err.code ? `${err.code}: ` : ''}${err.message ?? 'SMTP error'}`;
  if (status !== null && status >= 500) return { kind: 'dead', status, error: message, ...withAnswer };
  if (status !== null && status >= 400) return { kind: 'retry', status, error: message, ...withAnswer };
  if (err.code && PERMANENT_CODES.has(err.code)) return { kind: 'dead', status, error: message, ...withAnswer };
  return { kind: 'retry', status, error: message, ...withAnswer };
}

/**
 * Hands one message to an SMTP server (a connection of its own, closed after) and maps the reply to an outcome. `guard`:
 * what a server a tenant named may be (its organization's target policy); absent only for the system server.
 */
export async function sendMail(
  server: SmtpServer,
  message: EmailMessage,
  signal: AbortSignal,
  guard?: TargetGuard,
): Promise<SendOutcome> {
  if (signal.aborted) return { kind: 'retry', status: null, error: 'timed out' };
  const transport = await smtpTransport(server, signal, guard);
  try {
    const info = await transport.sendMail({ ...message, signal });
    const response = typeof info.response === 'string' ? info.response : '';
    const code = /^(\d{3})\b/.exec(response)?.[1];
    const rejected = (info.rejected ?? []).map(String);
    const note = rejected.length > 0 ? ` (rejected: ${rejected.join(', ')})` : '';
    return { kind: 'sent', status: code ? Number(code) : null, answer: clip(response + note, ANSWER_CHARS) };
  } catch (error) {
    return smtpErrorOutcome(error, signal);
  } finally {
    transport.close();
  }
}
