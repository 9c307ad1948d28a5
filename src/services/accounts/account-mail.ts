// Sends the mails of one's own account through the system SMTP server (after the writes they follow, so a slow mail
// server holds no transaction); failures are logged without the message, which holds a link.
import type { EmailMessage } from '../../notify/channels/email.js';
import { sendMail } from '../../notify/channels/email.js';
import type { ServiceContext } from '../context.js';

/** The whole exchange with the mail server, connection included. */
const ACCOUNT_MAIL_TIMEOUT_MS = 20_000;

/** Whether the mail server took the message; false also when the server sends no mail. */
export async function sendAccountMail(ctx: ServiceContext, message: EmailMessage, what: string): Promise<boolean> {
  if (!ctx.smtp) return false;
  const outcome = await sendMail(ctx.smtp, message, AbortSignal.timeout(ACCOUNT_MAIL_TIMEOUT_MS));
  if (outcome.kind === 'sent') {
    ctx.logger.info({ mail: what }, 'account mail sent');
    return true;
  }
  ctx.logger.warn({ mail: what, error: outcome.error, status: outcome.status }, 'an account mail was not sent');
  return false;
}

/** An address of the dashboard, absolute when the server knows its own (WARDEN_BASE_URL, or where it listens). */
export function dashboardLink(ctx: ServiceContext, path: string): string {
  return `${(ctx.baseUrl ?? '').replace(/\/+$/, '')}${path}`;
}
