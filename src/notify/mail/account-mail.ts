// The mails of one's own account: a link that finishes a sign-up or confirms an address (the only place besides the
// store's hash where its token exists), a note that an address has an account already, and a note to the old address
// once an email changed. A text and an HTML part each, like the invitation mail.
import { randomBytes } from 'node:crypto';
import { type EmailMessage, escapeHtml, messageId } from '../channels/email.js';
import { clip } from '../events/format.js';
import { type MailSender, senderAddress } from './smtp.js';

interface AccountMailBase {
  to: string;
  from: MailSender;
  now: number;
}

/** A link that finishes a sign-up (`signup`) or confirms an address (`email-change`), valid `validHours`. */
export function buildEmailLinkMail(
  mail: AccountMailBase & {
    purpose: 'signup' | 'email-change';
    link: string;
    validHours: number;
    organization?: string | undefined;
  },
): EmailMessage {
  const signup = mail.purpose === 'signup';
  const joining = mail.organization ? ` and join ${clip(oneLine(mail.organization), 120)}` : '';
  return accountMail(mail, {
    event: signup ? 'signup' : 'email-confirmation',
    subject: signup ? 'Finish creating your Warden account' : 'Confirm your email address for Warden',
    lines: [
      signup
        ? `Follow this link to finish creating your Warden account${joining}:`
        : `Follow this link to use ${mail.to} for your Warden account:`,
    ],
    action: { label: signup ? 'Finish creating the account' : 'Confirm the address', link: mail.link },
    after: `The link works for ${mail.validHours} hours, once. If you did not ask for this, ignore this mail: nothing happens unless the link is used.`,
  });
}

/** Someone signed up with, or asked to move an account to, an address that has an account: nothing changed. */
export function buildAddressInUseMail(
  mail: AccountMailBase & {
    purpose: 'signup' | 'email-change';
    signInLink: string;
    invitationLink?: string | undefined;
  },
): EmailMessage {
  const asked =
    mail.purpose === 'signup'
      ? 'Someone tried to create a Warden account with this address'
      : 'Someone asked to move another Warden account to this address';
  return accountMail(mail, {
    event: 'address-in-use',
    subject: 'You already have a Warden account',
    lines: [
      `${asked}, but you already have an account with it, so nothing was changed.`,
      mail.invitationLink
        ? 'If that was you: sign in, then open the invitation again to accept it:'
        : 'If that was you: sign in with your password instead (an administrator of Warden can send you a link to set a new one).',
    ],
    action: {
      label: mail.invitationLink ? 'Open the invitation' : 'Sign in',
      link: mail.invitationLink ?? mail.signInLink,
    },
    after: 'If it was not you, ignore this mail.',
  });
}

/** Told to the old address once the account's email changed. */
export function buildEmailChangedMail(mail: AccountMailBase & { newEmail: string }): EmailMessage {
  return accountMail(mail, {
    event: 'email-changed',
    subject: 'Your Warden account has a new email address',
    lines: [
      `The email address of your Warden account changed from ${mail.to} to ${clip(mail.newEmail, 254)}; you sign in with the new one from now on.`,
      'If you did not do this, tell an administrator of Warden at once.',
    ],
  });
}

function accountMail(
  mail: AccountMailBase,
  body: { event: string; subject: string; lines: string[]; action?: { label: string; link: string }; after?: string },
): EmailMessage {
  const text = [
    ...body.lines,
    ...(body.action ? [body.action.link] : []),
    ...(body.after ? ['', body.after] : []),
  ].join('\n');
  const paragraph = (line: string, colour = '#111827') =>
    `<p style="margin:0 0 12px;color:${colour}">${escapeHtml(line)}</p>`;
  const button = body.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(body.action.link)}" style="display:inline-block;padding:8px 14px;border-radius:6px;background:#0969da;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(body.action.label)}</a></p>`
    : '';
  const html =
    '<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">' +
    '<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#111827;max-width:600px">' +
    body.lines.map((line) => paragraph(line)).join('') +
    button +
    (body.after ? paragraph(body.after, '#6b7280') : '') +
    '</div></body></html>';
  return {
    from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? 'Warden', address: mail.from.address },
    to: [mail.to],
    subject: body.subject,
    text,
    html,
    messageId: messageId(`account.${randomBytes(12).toString('hex')}`, senderAddress(mail.from)),
    date: new Date(mail.now),
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Warden-Event': body.event },
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
