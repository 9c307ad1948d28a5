// The invitation mail: a text and an HTML part with the invitation link, the only place besides the inviter's screen
// where its token exists in clear (the store keeps its hash).
import { randomBytes } from 'node:crypto';
import { type EmailMessage, escapeHtml, messageId } from '../channels/email.js';
import { clip } from '../events/format.js';
import { type MailSender, senderAddress } from './smtp.js';

export interface InvitationMail {
  to: string;
  from: MailSender;
  organization: { name: string };
  /** Who invited: a member's name, or an API key's. */
  inviter: string;
  role: string;
  link: string;
  /** How long the link works, in days. */
  validDays: number;
  now: number;
}

export function buildInvitationMail(mail: InvitationMail): EmailMessage {
  const organization = clip(mail.organization.name.replace(/\s+/g, ' ').trim(), 120);
  const inviter = clip(mail.inviter.replace(/\s+/g, ' ').trim(), 120);
  const text = [
    `${inviter} invites you to join ${organization} on Warden as ${article(mail.role)} ${mail.role}.`,
    '',
    `Accept with this link (it works for ${mail.validDays} days, once):`,
    mail.link,
    '',
    'If you did not expect this, ignore this mail: nothing happens unless the link is used.',
  ].join('\n');
  const html =
    '<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">' +
    '<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#111827;max-width:600px">' +
    `<p style="margin:0 0 12px">${escapeHtml(inviter)} invites you to join <strong>${escapeHtml(organization)}</strong> on Warden as ${article(mail.role)} ${escapeHtml(mail.role)}.</p>` +
    `<p style="margin:0 0 16px"><a href="${escapeHtml(mail.link)}" style="display:inline-block;padding:8px 14px;border-radius:6px;background:#0969da;color:#ffffff;text-decoration:none;font-weight:600">Accept the invitation</a></p>` +
    `<p style="margin:0 0 12px;color:#6b7280">The link works for ${mail.validDays} days, once. If you did not expect this, ignore this mail: nothing happens unless the link is used.</p>` +
    '</div></body></html>';
  return {
    from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? 'Warden', address: mail.from.address },
    to: [mail.to],
    subject: clip(`Join ${organization} on Warden`, 200),
    text,
    html,
    messageId: messageId(`invite.${randomBytes(12).toString('hex')}`, senderAddress(mail.from)),
    date: new Date(mail.now),
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Warden-Event': 'invitation' },
  };
}

function article(role: string): string {
  return /^[aeiou]/.test(role) ? 'an' : 'a';
}
