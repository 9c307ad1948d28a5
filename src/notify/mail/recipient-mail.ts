// The mail asking an address to confirm an organization's notifications through the system SMTP server (double
// opt-in): Warden's words around the organization's name, a confirmation link (its token exists only here; the store
// keeps a hash) and a one-click link to never be asked again.
import { randomBytes } from 'node:crypto';
import { type EmailMessage, escapeHtml, messageId } from '../channels/email.js';
import { clip } from '../events/format.js';
import { type MailSender, senderAddress } from './smtp.js';

export interface RecipientConfirmationMail {
  to: string;
  from: MailSender;
  /** The organization asking (its name is its own choice: quoted, clipped, never in the sender). */
  organization: string;
  /** The Warden server that sends (its public address). */
  service: string;
  confirmUrl: string;
  /** Declines: this organization never mails nor asks this address again. */
  unsubscribeUrl: string;
  /** How long the link works, in hours. */
  validHours: number;
  now: number;
}

export function buildRecipientConfirmationMail(mail: RecipientConfirmationMail): EmailMessage {
  const organization = clip(mail.organization.replace(/\s+/g, ' ').trim(), 60);
  const intro = `The organization "${organization}", which uses the Warden monitoring service at ${mail.service}, wants to send its alerts (monitors down and back up, incidents) to this address.`;
  const text = [
    intro,
    '',
    `Nothing is sent until you confirm. Confirm with this link (it works for ${mail.validHours} hours):`,
    mail.confirmUrl,
    '',
    'If you do not know them or do not want these alerts, ignore this mail. To never be asked by them again:',
    mail.unsubscribeUrl,
    '',
    `The alerts are written by "${organization}", not by the operator of ${mail.service}.`,
  ].join('\n');
  const link = (url: string, label: string, colour: string) =>
    `<a href="${escapeHtml(url)}" style="display:inline-block;padding:8px 14px;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(label)}</a>`;
  const html =
    '<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">' +
    '<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#111827;max-width:600px">' +
    `<p style="margin:0 0 12px">${escapeHtml(intro)}</p>` +
    `<p style="margin:0 0 16px">${link(mail.confirmUrl, 'Confirm: send me their alerts', '#0969da')}</p>` +
    `<p style="margin:0 0 12px;color:#6b7280">Nothing is sent until you confirm; the link works for ${mail.validHours} hours. If you do not know them or do not want these alerts, ignore this mail, or <a href="${escapeHtml(mail.unsubscribeUrl)}" style="color:#6b7280">never be asked by them again</a>.</p>` +
    `<p style="margin:16px 0 0;font-size:12px;color:#6b7280">${escapeHtml(`The alerts are written by "${organization}", not by the operator of ${mail.service}.`)}</p>` +
    '</div></body></html>';
  return {
    from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? 'Warden', address: mail.from.address },
    to: [mail.to],
    subject: clip(`[Warden] Confirm alerts from "${organization}"`, 200),
    text,
    html,
    messageId: messageId(`recipient.${randomBytes(12).toString('hex')}`, senderAddress(mail.from)),
    date: new Date(mail.now),
    headers: {
      'Auto-Submitted': 'auto-generated',
      'X-Warden-Event': 'recipient.confirm',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    list: { unsubscribe: mail.unsubscribeUrl },
  };
}
