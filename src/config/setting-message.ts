// How a setting's problem is told: what was expected and what was given, never repeating a secret.

/** Variables whose values are never repeated in a message: they may hold a password or a token. */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'WARDEN_SMTP_URL',
  'WARDEN_METRICS_TOKEN',
  'WARDEN_OIDC_CLIENT_SECRET',
  'WARDEN_RELAY_TOKEN',
]);

/** What a zod issue tells of one setting, as far as a message needs it. */
interface SettingIssue {
  code: string;
  message: string;
  values?: readonly unknown[];
  format?: string;
}

/**
 * A setting's problem in words: what was expected and what was given (`expected full or normal, got "bogus"`). A
 * secret is never repeated: only its length, or the scheme of a URL (`got "http://…"`), is told.
 */
export function settingMessage(issue: SettingIssue, given: unknown, secret = false): string {
  let message = issue.message;
  if (issue.code === 'invalid_value' && issue.values && !message.startsWith('expected'))
    message = `expected ${orList(issue.values.map(String))}`;
  else if (issue.code === 'invalid_format' && issue.format === 'url' && !message.startsWith('expected'))
    message = 'expected a URL (https://…)';
  else if (/^(Invalid|Too)/.test(message)) message = `expected ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  if (/\bgot\b/.test(message)) return message;
  return `${message}, got ${shownValue(given, secret)}`;
}

export function orList(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

export function shownValue(given: unknown, secret: boolean): string {
  if (given === undefined) return 'nothing';
  const text = String(given);
  if (!secret) return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0];
  return scheme
    ? `"${scheme}…" (the rest not repeated: it may hold a secret)`
    : `${text.length} characters (not repeated: a secret)`;
}
