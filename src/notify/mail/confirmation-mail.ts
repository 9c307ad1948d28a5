// The double opt-in mail: a text and an HTML part with the confirmation link, the only place its token ever exists
// in clear (the store keeps its hash).
import { randomBytes } from 'node:crypto';
import { type EmailMessage, escapeHtml, messageId } from '../channels/email.js';
import { clip } from '../events/format.js';
import { type MailSender, senderAddress } from './smtp.js';

export interface ConfirmationMail {
  to: string;
  from: MailSender;
  page: { title: string; url: string };
  confirmUrl: string;
  /** How long the link works, in hours. */
  validHours: number;
  now: number;
}

export function buildConfirmationMail(mail: ConfirmationMail): EmailMessage {
  const title = clip(mail.page.title.replace(/\s+/g, ' ').trim(), 120);
  const text = [
    `Someone, hopefully you, asked to get status updates from ${title} at this address: incidents, and maintenance as it starts and ends.`,
    '',
    `Confirm with this link (it works for ${mail.validHours} hours):`,
    mail.confirmUrl,
    '',
    'If you did not ask, ignore this mail: nothing more will be sent to you.',
    '',
    `${title}: ${mail.page.url}`,
  ].join('\n');
  const html =
    '<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">' +
    '<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#111827;max-width:600px">' +
    `<p style="margin:0 0 12px">Someone, hopefully you, asked to get status updates from <strong>${escapeHtml(title)}</strong> at this address: incidents, and maintenance as it starts and ends.</p>` +
    `<p style="margin:0 0 16px"><a href="${escapeHtml(mail.confirmUrl)}" style="display:inline-block;padding:8px 14px;border-radius:6px;background:#0969da;color:#ffffff;text-decoration:none;font-weight:600">Confirm my subscription</a></p>` +
    `<p style="margin:0 0 12px;color:#6b7280">The link works for ${mail.validHours} hours. If you did not ask, ignore this mail: nothing more will be sent to you.</p>` +
    `<p style="margin:16px 0 0;font-size:12px;color:#6b7280"><a href="${escapeHtml(mail.page.url)}" style="color:#6b7280">${escapeHtml(title)}</a></p>` +
    '</div></body></html>';
  return {
    from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? title, address: mail.from.address },
    to: [mail.to],
    subject: clip(`Confirm your subscription to ${title} status updates`, 200),
    text,
    html,
    messageId: messageId(`confirm.${randomBytes(12).toString('hex')}`, senderAddress(mail.from)),
    date: new Date(mail.now),
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Warden-Event': 'subscription.confirm' },
  };
}
