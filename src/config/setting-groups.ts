// The settings made of several variables that only make sense together: the OpenID Connect provider (issuer, client
// id and secret) and the system SMTP server (URL and sender), each with a message naming what is missing.
import { mailSender, parseSmtpUrl, type SmtpSettings } from '../notify/mail/smtp.js';
import type { OidcSettings } from '../services/accounts/oidc-client.js';
import { orList, settingMessage, shownValue } from './setting-message.js';

/** The OpenID Connect provider: issuer, client id and secret together, or none of them. */
export function oidcSettings(e: {
  WARDEN_OIDC_ISSUER?: string | undefined;
  WARDEN_OIDC_CLIENT_ID?: string | undefined;
  WARDEN_OIDC_CLIENT_SECRET?: string | undefined;
  WARDEN_OIDC_NAME: string;
}): OidcSettings | undefined {
  const given = [e.WARDEN_OIDC_ISSUER, e.WARDEN_OIDC_CLIENT_ID, e.WARDEN_OIDC_CLIENT_SECRET];
  if (given.every((v) => v === undefined)) return undefined;
  if (
    e.WARDEN_OIDC_ISSUER === undefined ||
    e.WARDEN_OIDC_CLIENT_ID === undefined ||
    e.WARDEN_OIDC_CLIENT_SECRET === undefined
  )
    throw new Error(
      `invalid environment:\n  - WARDEN_OIDC_ISSUER, WARDEN_OIDC_CLIENT_ID and WARDEN_OIDC_CLIENT_SECRET: expected all three together, got only ${orList(
        (['WARDEN_OIDC_ISSUER', 'WARDEN_OIDC_CLIENT_ID', 'WARDEN_OIDC_CLIENT_SECRET'] as const).filter(
          (_, i) => given[i] !== undefined,
        ),
      ).replace(' or ', ' and ')}`,
    );
  return {
    issuer: e.WARDEN_OIDC_ISSUER,
    clientId: e.WARDEN_OIDC_CLIENT_ID,
    clientSecret: e.WARDEN_OIDC_CLIENT_SECRET,
    name: e.WARDEN_OIDC_NAME,
  };
}

/** WARDEN_SMTP_URL with WARDEN_SMTP_FROM (each needs the other), or undefined when neither is set. */
export function smtpSettings(url: string | undefined, from: string | undefined): SmtpSettings | undefined {
  if (url === undefined && from === undefined) return undefined;
  const problems: string[] = [];
  if (url === undefined)
    problems.push('WARDEN_SMTP_URL: expected with WARDEN_SMTP_FROM (smtp://user:password@host:port), got nothing');
  // "Status <status@example.com>" or a bare address.
  const named = from === undefined ? null : /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from);
  const sender = mailSender().safeParse(named ? { address: named[2], ...(named[1] ? { name: named[1] } : {}) } : from);
  if (from === undefined)
    problems.push(
      'WARDEN_SMTP_FROM: expected with WARDEN_SMTP_URL (the sender address, e.g. status@example.com), got nothing',
    );
  else if (!sender.success)
    problems.push(`WARDEN_SMTP_FROM: expected an email address, got ${shownValue(from, false)}`);
  let settings: SmtpSettings | undefined;
  if (url !== undefined) {
    try {
      settings = parseSmtpUrl(url, sender.success ? sender.data : '');
    } catch (error) {
      problems.push(
        `WARDEN_SMTP_URL: ${settingMessage({ code: 'custom', message: (error as Error).message.replace(/, not \S+$/, '') }, url, true)}`,
      );
    }
  }
  if (problems.length > 0 || !settings) throw new Error(`invalid environment:\n  - ${problems.join('\n  - ')}`);
  return settings;
}
