// Gatus's alerting (providers under `alerting:`, alerts on each endpoint) as Warden notification channels that the
// monitors name; a secret becomes an ${ENV} placeholder, a provider Warden lacks is reported.
import type { FieldIssue } from '../../domain/errors.js';
import { RULE_LIMITS } from '../../domain/limits.js';
import { fileNumber, fileText } from './file-text.js';
import { GATUS_ALERTING_TOOLS } from './gatus-alerting-tools.js';
import { GATUS_PUSH_BUILDERS } from './gatus-push-alerting.js';
import { envName, goDurationMs, hasEnvReference } from './gatus-values.js';
import type { ImportNote } from './report.js';

/** One alert of an endpoint with its provider's default-alert filled in (Gatus's defaults where neither says). */
export interface ResolvedAlert {
  type: string;
  enabled: boolean;
  failureThreshold: number;
  sendOnResolved: boolean;
  reminderMs: number;
}

export interface AlertingImport {
  channels: Record<string, unknown>[];
  /** The channel key made for each Gatus provider type. */
  keyOf: Map<string, string>;
}

interface Notes {
  skipped: ImportNote[];
  approximated: ImportNote[];
}

export type Provider = Record<string, unknown>;
/** A secret field's value as written: an ${ENV} placeholder, never the value itself. */
export type Secret = (field: string, value: unknown) => string;
export type Channel = { type: string; name: string; config: Record<string, unknown>; notes: string[] };

const GATUS_FAILURE_THRESHOLD = 3;

/** How Gatus names its providers (slack, teams-workflows, aws-ses): an alert type or an `alerting:` key of another shape is a mistake. */
const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * The provider names of a Gatus configuration that cannot be Gatus's (`__proto__`, `toString`, `Slack`), each with
 * the field that holds it; importGatus refuses the file when there is one.
 */
export function providerNameIssues(gatus: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const check = (path: string, name: string) => {
    if (!PROVIDER_NAME.test(name))
      issues.push({
        path,
        message: `"${name.slice(0, 64)}" is not a Gatus alerting provider (lowercase letters, digits and hyphens, as slack or teams-workflows)`,
      });
  };
  if (isObject(gatus.alerting)) for (const name of Object.keys(gatus.alerting)) check(`alerting.${name}`, name);
  for (const list of ['endpoints', 'external-endpoints'] as const) {
    const endpoints = Array.isArray(gatus[list]) ? (gatus[list] as unknown[]) : [];
    for (const [i, endpoint] of endpoints.entries()) {
      const alerts = isObject(endpoint) && Array.isArray(endpoint.alerts) ? endpoint.alerts : [];
      for (const [j, alert] of alerts.entries())
        if (isObject(alert) && typeof alert.type === 'string') check(`${list}[${i}].alerts[${j}].type`, alert.type);
    }
  }
  return issues;
}

/** Gatus headers whose values are credentials: written as ${ENV} placeholders, not copied into warden.yaml. */
export function isCredentialHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie)$|token|secret|key|auth|pass/i.test(name);
}

/** An endpoint's alerts, each completed by its provider's `default-alert` and Gatus's defaults. */
export function resolveAlerts(alerts: unknown, alerting: Record<string, unknown>): ResolvedAlert[] {
  if (!Array.isArray(alerts)) return [];
  return alerts.flatMap((alert) => {
    if (!isObject(alert) || typeof alert.type !== 'string') return [];
    const provider = Object.hasOwn(alerting, alert.type) ? alerting[alert.type] : undefined;
    const defaults = isObject(provider) && isObject(provider['default-alert']) ? provider['default-alert'] : {};
    const pick = (field: string) => alert[field] ?? defaults[field];
    const threshold = fileNumber(pick('failure-threshold') ?? GATUS_FAILURE_THRESHOLD);
    return [
      {
        type: alert.type,
        enabled: pick('enabled') !== false,
        failureThreshold: Number.isInteger(threshold) && threshold > 0 ? threshold : GATUS_FAILURE_THRESHOLD,
        sendOnResolved: pick('send-on-resolved') === true,
        reminderMs: goDurationMs(pick('minimum-reminder-interval')) ?? 0,
      },
    ];
  });
}

/** A channel for each provider some enabled alert uses; a provider no alert uses sends nothing in Gatus and is left out. */
export function importAlerting(
  alerting: Record<string, unknown>,
  used: Map<string, ResolvedAlert[]>,
  notes: Notes,
): AlertingImport {
  const channels: Record<string, unknown>[] = [];
  const keyOf = new Map<string, string>();
  for (const [type, provider] of Object.entries(alerting)) {
    const item = `alerting.${type}`;
    const alerts = used.get(type) ?? [];
    if (alerts.length === 0) {
      notes.skipped.push({ item, reason: 'no enabled endpoint alert uses this provider' });
      continue;
    }
    const build = BUILDERS.get(type);
    if (build === undefined || !isObject(provider)) {
      notes.skipped.push({
        item,
        reason: `Warden has no ${type} channel; its alerts are not imported (a webhook channel can reach most services)`,
      });
      continue;
    }
    const secret: Secret = (field, value) => {
      if (hasEnvReference(value)) return String(value);
      const name = envName(type, field);
      notes.approximated.push({
        item,
        reason: `${field} is read from \${${name}}: set that variable to its value before warden config apply`,
      });
      return `\${${name}}`;
    };
    const channel = build(provider, secret);
    if ('skip' in channel) {
      notes.skipped.push({ item, reason: channel.skip });
      continue;
    }
    if (Array.isArray(provider.overrides) && provider.overrides.length > 0)
      channel.notes.push('the per-group overrides are not imported: every monitor uses the main settings');
    for (const reason of channel.notes) notes.approximated.push({ item, reason });
    const key = type.replace(/[^a-z0-9_-]/g, '-');
    keyOf.set(type, key);
    channels.push({
      key,
      name: channel.name,
      type: channel.type,
      config: channel.config,
      rules: rulesOf(alerts, item, notes),
    });
  }
  return { channels, keyOf };
}

/** What Gatus's alerts send, as the channel's rules: down, and recoveries and reminders when an alert asks for them. */
function rulesOf(alerts: ResolvedAlert[], item: string, notes: Notes): Record<string, unknown> {
  const events = ['monitor.down'];
  const resolved = alerts.filter((a) => a.sendOnResolved).length;
  if (resolved > 0) events.push('monitor.recovered');
  if (resolved > 0 && resolved < alerts.length)
    notes.approximated.push({
      item,
      reason: 'send-on-resolved differs between its alerts: recoveries are sent for every monitor',
    });
  const reminders = alerts.map((a) => a.reminderMs).filter((ms) => ms > 0);
  if (reminders.length === 0) return { events };
  const { min, max } = RULE_LIMITS.remindEveryMin;
  const remindEveryMin = Math.min(max, Math.max(min, Math.round(Math.min(...reminders) / 60_000)));
  if (reminders.length < alerts.length || new Set(reminders).size > 1)
    notes.approximated.push({
      item,
      reason: `minimum-reminder-interval differs between its alerts: every down monitor is reminded every ${remindEveryMin} min`,
    });
  return { events, remindEveryMin };
}

type Builder = (provider: Provider, secret: Secret) => Channel | { skip: string };

const BUILDER_TABLE: Record<string, Builder> = {
  discord: (p, secret) => webhookChat('discord', 'Discord', p, secret, ['title', 'message-content']),
  slack: (p, secret) => webhookChat('slack', 'Slack', p, secret, ['title']),
  'teams-workflows': (p, secret) => webhookChat('teams', 'Microsoft Teams', p, secret, ['title']),
  mattermost: (p, secret) => webhookChat('mattermost', 'Mattermost', p, secret, ['channel']),
  rocketchat: (p, secret) =>
    webhookChat('rocketchat', 'Rocket.Chat', p, secret, ['channel', 'alias', 'emoji', 'avatar']),
  googlechat: (p, secret) => webhookChat('googlechat', 'Google Chat', p, secret, []),
  teams: () => ({
    skip: "Office 365 connector webhooks are retired; Warden's teams channel takes a Teams Workflows URL (alerting.teams-workflows)",
  }),
  ntfy: (p, secret) => {
    if (typeof p.topic !== 'string' || p.topic === '') return { skip: 'no topic' };
    const base = typeof p.url === 'string' && p.url !== '' ? p.url.replace(/\/+$/, '') : 'https://ntfy.sh';
    const config: Record<string, unknown> = { url: `${base}/${p.topic}` };
    if (typeof p.token === 'string' && p.token !== '') config.token = secret('token', p.token);
    return {
      type: 'ntfy',
      name: 'ntfy',
      config,
      notes: ignored(p, ['priority', 'email', 'click', 'disable-firebase', 'disable-cache']),
    };
  },
  telegram: (p, secret) => {
    if (p.token === undefined || p.id === undefined) return { skip: 'token and id are required' };
    const config: Record<string, unknown> = { botToken: secret('token', p.token), chatId: fileText(p.id) };
    if (typeof p['api-url'] === 'string' && p['api-url'] !== '') config.apiBaseUrl = p['api-url'];
    return { type: 'telegram', name: 'Telegram', config, notes: ignored(p, ['topic-id']) };
  },
  email: (p, secret) => {
    const to = fileText(p.to)
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean);
    if (to.length === 0 || typeof p.from !== 'string' || typeof p.host !== 'string')
      return { skip: 'from, host and to are required' };
    const port = fileNumber(p.port);
    const config: Record<string, unknown> = {
      to: to.length === 1 ? to[0] : to,
      from: p.from,
      host: p.host,
      port,
      secure: port === 465 ? 'tls' : 'starttls',
    };
    if (typeof p.password === 'string' && p.password !== '') {
      config.username = typeof p.username === 'string' && p.username !== '' ? p.username : p.from;
      config.password = secret('password', p.password);
    }
    if (isObject(p.client) && p.client.insecure === true) config.tlsRejectUnauthorized = false;
    return { type: 'email', name: 'Email', config, notes: [] };
  },
  custom: (p, secret) => {
    if (typeof p.url !== 'string' || p.url === '') return { skip: 'no url' };
    const config: Record<string, unknown> = { url: p.url, secret: `\${${envName('custom', 'webhook', 'secret')}}` };
    const headers = isObject(p.headers) ? Object.entries(p.headers) : [];
    if (headers.length > 0)
      config.headers = Object.fromEntries(
        headers.map(([name, value]) => [
          name,
          isCredentialHeader(name) ? secret(`headers.${name}`, value) : fileText(value),
        ]),
      );
    const notes = [
      `Warden posts its own signed JSON event (Standard Webhooks, docs/notifications.md) to the URL: the method, body and [PLACEHOLDERS] are not imported; set ${envName('custom', 'webhook', 'secret')} to a signing secret (whsec_…) the receiver verifies`,
    ];
    if (/\[[A-Z_]+\]/.test(p.url)) notes.push('the URL holds Gatus [PLACEHOLDERS], which Warden sends as written');
    return { type: 'webhook', name: 'Webhook', config, notes };
  },
};
/** The providers Warden has a channel for, by Gatus's name; a Map, as the names looked up come from the file. */
const BUILDERS = new Map(Object.entries({ ...BUILDER_TABLE, ...GATUS_PUSH_BUILDERS, ...GATUS_ALERTING_TOOLS }));

/** Discord, Slack, Teams, Mattermost, Rocket.Chat, Google Chat: a webhook URL (a secret), Warden's own layout. */
function webhookChat(
  type: string,
  name: string,
  p: Provider,
  secret: Secret,
  looks: string[],
): Channel | { skip: string } {
  if (typeof p['webhook-url'] !== 'string' || p['webhook-url'] === '') return { skip: 'no webhook-url' };
  return { type, name, config: { url: secret('webhook-url', p['webhook-url']) }, notes: ignored(p, looks) };
}

/** Notes for the provider fields that were set but have no Warden equivalent. */
function ignored(p: Provider, fields: string[]): string[] {
  const set = fields.filter((field) => p[field] !== undefined && p[field] !== '');
  return set.length === 0 ? [] : [`${set.join(', ')} not imported: Warden's messages have their own layout`];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The retries an endpoint's alerts imply: Gatus alerts after failure-threshold failures in a row. */
export function retriesOf(alerts: ResolvedAlert[]): number | undefined {
  const enabled = alerts.filter((a) => a.enabled);
  if (enabled.length === 0) return undefined;
  return Math.min(10, Math.min(...enabled.map((a) => a.failureThreshold)) - 1);
}
