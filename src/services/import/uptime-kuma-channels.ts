// Uptime Kuma's notifications as warden.yaml channels: Discord, Slack, Teams, Telegram, ntfy, SMTP, webhooks,
// Mattermost, Rocket.Chat, Google Chat, Pushover, Gotify and Matrix (and PagerDuty, Opsgenie and Twilio, in
// uptime-kuma-alerting.ts) carry over (their secrets as ${ENV} placeholders), scoped to the monitors that used them;
// other providers are reported.
import { CHANNEL_TYPES } from '../../notify/channels/registry.js';
import type { KumaData, KumaNotificationRow } from '../../store/index.js';
import { channelEntrySchema } from '../notifications/schema.js';
import { fileText } from './file-text.js';
import type { ImportNote } from './report.js';
import { KUMA_ALERTING_PROVIDERS } from './uptime-kuma-alerting.js';
import { KUMA_PUSH_PROVIDERS } from './uptime-kuma-push.js';
import {
  envName,
  isCredentialHeader,
  issues,
  keyAllocator,
  placeholder,
  slugOf,
  textOf,
  urlWithSecret,
} from './uptime-kuma-values.js';

export interface ChannelContext {
  data: KumaData;
  imported: ReadonlyMap<number, string>;
  skipped: ImportNote[];
  approximated: ImportNote[];
}

/** Warden's channel types as a reason lists them: "webhook, discord, … and matrix". */
const WARDEN_CHANNELS = `${CHANNEL_TYPES.slice(0, -1).join(', ')} and ${CHANNEL_TYPES.at(-1)}`;

/** Kuma tells of a monitor going down and coming back up. */
const KUMA_EVENTS = ['monitor.down', 'monitor.recovered'];

type Provider = (
  config: Record<string, unknown>,
  key: string,
  notes: string[],
) => { type: string; config: Record<string, unknown> } | { skip: string };

export function kumaChannels(ctx: ChannelContext): Record<string, unknown>[] {
  const keys = keyAllocator();
  const channels: Record<string, unknown>[] = [];
  for (const row of ctx.data.notifications) {
    const item = `notification "${row.name ?? row.id}" (id ${row.id})`;
    const config = parseConfig(row);
    const type = typeof config.type === 'string' ? config.type : 'unknown';
    const provider = PROVIDERS.get(type);
    if (provider === undefined) {
      ctx.skipped.push({
        item,
        reason: `Warden has no ${type} channel (${WARDEN_CHANNELS} are its channels)`,
      });
      continue;
    }
    const key = keys(slugOf(row.name ?? '', `notification-${row.id}`));
    const notes: string[] = [];
    const mapped = provider(config, key, notes);
    if ('skip' in mapped) {
      ctx.skipped.push({ item, reason: mapped.skip });
      continue;
    }
    const monitors = ctx.data.monitorNotifications
      .filter((l) => l.right === row.id)
      .flatMap((l) => ctx.imported.get(l.left) ?? []);
    if (monitors.length === 0)
      notes.push('no imported monitor used it: its scope is empty (it gets nothing until you widen rules.monitors)');
    const entry: Record<string, unknown> = {
      key,
      name: textOf(row.name, 200) ?? key,
      type: mapped.type,
      config: mapped.config,
      rules: { events: [...KUMA_EVENTS], monitors: [...new Set(monitors)] },
      ...(row.active ? {} : { enabled: false }),
    };
    const parsed = channelEntrySchema.safeParse(entry);
    // A value that is an ${ENV} placeholder is checked by `config apply`, once the operator has set it.
    const problems = parsed.success ? [] : parsed.error.issues.filter((issue) => !holdsPlaceholder(entry, issue.path));
    if (problems.length > 0) {
      ctx.skipped.push({ item, reason: `it does not fit Warden: ${issues({ issues: problems })}` });
      continue;
    }
    channels.push(entry);
    for (const reason of notes) ctx.approximated.push({ item, reason });
  }
  return channels;
}

function parseConfig(row: KumaNotificationRow): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(row.config ?? '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function holdsPlaceholder(entry: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = entry;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return typeof value === 'string' && value.includes('${KUMA_');
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A webhook URL with its token as an ${ENV} placeholder, and the note telling what to set. */
function secretUrl(url: string | undefined, key: string, what: string, notes: string[]): string | { skip: string } {
  if (url === undefined) return { skip: `it has no ${what}` };
  const env = envName(key, 'url_token');
  const split = urlWithSecret(url, env);
  if (split === undefined) return { skip: `its ${what} is not an http(s) URL with a token` };
  notes.push(
    `the token in its ${what} is read from \${${env}}: set it to the URL's ${split.removed === 'path' ? 'last part' : `${split.removed}= parameter`} before warden config apply`,
  );
  return split.url;
}

function templateNote(config: Record<string, unknown>, flags: string[], notes: string[]): void {
  if (flags.some((flag) => config[flag] === true))
    notes.push("its custom message template is not imported: Warden's messages have their own layout");
}

/** Kuma's providers Warden has a channel for. */
const PROVIDER_TABLE: Record<string, Provider> = {
  discord(config, key, notes) {
    const url = secretUrl(str(config.discordWebhookUrl), key, 'webhook URL', notes);
    if (typeof url !== 'string') return url;
    templateNote(config, ['discordUseMessageTemplate'], notes);
    return { type: 'discord', config: { url } };
  },
  slack(config, key, notes) {
    const url = secretUrl(str(config.slackwebhookURL), key, 'webhook URL', notes);
    if (typeof url !== 'string') return url;
    templateNote(config, ['slackUseTemplate'], notes);
    if (str(config.slackchannel))
      notes.push('its channel override is not imported: the webhook posts to its own channel');
    return { type: 'slack', config: { url } };
  },
  teams(config, key, notes) {
    const raw = str(config.webhookUrl);
    if (raw !== undefined && !raw.includes('sig='))
      return {
        skip: 'an Office 365 connector webhook (retired by Microsoft): create a Workflows webhook and add a teams channel by hand',
      };
    const url = secretUrl(raw, key, 'webhook URL', notes);
    return typeof url === 'string' ? { type: 'teams', config: { url } } : url;
  },
  telegram(config, key, notes) {
    const chatId =
      str(config.telegramChatID) ??
      (typeof config.telegramChatID === 'number' ? String(config.telegramChatID) : undefined);
    if (str(config.telegramBotToken) === undefined || chatId === undefined)
      return { skip: 'it has no bot token or chat id' };
    const env = envName(key, 'bot_token');
    notes.push(`its bot token is read from \${${env}}: set it before warden config apply`);
    const out: Record<string, unknown> = { botToken: placeholder(env), chatId };
    const server = str(config.telegramServerUrl);
    if (server !== undefined && server.replace(/\/+$/, '') !== 'https://api.telegram.org')
      out.apiBaseUrl = server.replace(/\/+$/, '');
    if (str(config.telegramMessageThreadID))
      notes.push('its message thread is not imported: the bot posts to the chat');
    if (config.telegramSendSilently === true || config.telegramProtectContent === true)
      notes.push('its silent and protected-content options are not imported');
    templateNote(config, ['telegramUseTemplate'], notes);
    return { type: 'telegram', config: out };
  },
  webhook(config, key, notes) {
    const url = str(config.webhookURL);
    if (url === undefined) return { skip: 'it has no URL' };
    const env = envName(key, 'webhook_secret');
    const out: Record<string, unknown> = { url, secret: placeholder(env) };
    let headers: unknown = null;
    try {
      headers = str(config.webhookAdditionalHeaders) ? JSON.parse(String(config.webhookAdditionalHeaders)) : null;
    } catch {
      notes.push('its additional headers are not valid JSON and were left out');
    }
    if (headers !== null && typeof headers === 'object' && !Array.isArray(headers)) {
      out.headers = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => {
          if (!isCredentialHeader(name)) return [name, fileText(value)];
          const header = envName(key, 'header', name);
          notes.push(`header ${name} is read from \${${header}}: set it before warden config apply`);
          return [name, placeholder(header)];
        }),
      );
    }
    notes.push(
      `Warden posts its own signed JSON event (Standard Webhooks, docs/notifications.md), not Kuma's ${str(config.webhookContentType) ?? 'json'} body: check the receiver takes it; set ${env} to a signing secret (whsec_…) it verifies`,
    );
    return { type: 'webhook', config: out };
  },
  ntfy(config, key, notes) {
    const server = str(config.ntfyserverurl) ?? 'https://ntfy.sh';
    const topic = str(config.ntfytopic);
    if (topic === undefined) return { skip: 'it has no topic' };
    const out: Record<string, unknown> = { url: `${server.replace(/\/+$/, '')}/${encodeURIComponent(topic)}` };
    const method = str(config.ntfyAuthenticationMethod) ?? (str(config.ntfyusername) ? 'usernamePassword' : 'none');
    if (method === 'accessToken' || method === 'usernamePassword') {
      const env = envName(key, 'token');
      out.token = placeholder(env);
      notes.push(
        method === 'accessToken'
          ? `its access token is read from \${${env}}: set it before warden config apply`
          : `Warden sends an access token, not a user name and password: create one (tk_…) for "${str(config.ntfyusername) ?? ''}" and set ${env}`,
      );
    }
    if (config.ntfyPriority !== undefined)
      notes.push("its priority is not imported: Warden sets one by the event's severity");
    return { type: 'ntfy', config: out };
  },
  smtp(config, key, notes) {
    const recipients = [config.smtpTo, config.smtpCC, config.smtpBCC]
      .flatMap((list) => (str(list) ?? '').split(','))
      .map((a) => a.trim())
      .filter((a) => a !== '');
    if (recipients.length === 0) return { skip: 'it has no recipient' };
    if (str(config.smtpCC) || str(config.smtpBCC)) notes.push('its Cc and Bcc recipients are sent to as To');
    const out: Record<string, unknown> = { to: recipients.length === 1 ? recipients[0] : recipients };
    const host = str(config.smtpHost);
    if (host !== undefined) {
      out.host = host;
      if (typeof config.smtpPort === 'number' || /^\d+$/.test(fileText(config.smtpPort)))
        out.port = Number(config.smtpPort);
      out.secure = config.smtpSecure === true ? 'tls' : config.smtpIgnoreSTARTTLS === true ? 'none' : 'starttls';
      if (str(config.smtpUsername)) {
        out.username = str(config.smtpUsername);
        const env = envName(key, 'smtp_password');
        out.password = placeholder(env);
        notes.push(`its SMTP password is read from \${${env}}: set it before warden config apply`);
      }
      if (config.smtpIgnoreTLSError === true) out.tlsRejectUnauthorized = false;
    }
    const from = str(config.smtpFrom);
    if (from !== undefined) out.from = from;
    if (config.smtpSecure !== true && config.smtpIgnoreSTARTTLS !== true && host !== undefined)
      notes.push(
        'Kuma used STARTTLS when the server offered it; Warden requires it (set secure: none for a plain local relay)',
      );
    if (str(config.customSubject) || str(config.customBody))
      notes.push("its custom subject and body are not imported: Warden's messages have their own layout");
    return { type: 'email', config: out };
  },
};
/** Mattermost, Rocket.Chat and Google Chat: a webhook URL (its token a placeholder); the sender's looks are Warden's. */
function chatProvider(type: string, urlField: string, looks: string[]): Provider {
  return (config, key, notes) => {
    const url = secretUrl(str(config[urlField]), key, 'webhook URL', notes);
    if (typeof url !== 'string') return url;
    const set = looks.filter((field) => str(config[field]) !== undefined || config[field] === true);
    if (set.length > 0)
      notes.push(`its ${set.join(', ')} not imported: the webhook posts to its own channel, as Warden, in its layout`);
    return { type, config: { url } };
  };
}

PROVIDER_TABLE.mattermost = chatProvider('mattermost', 'mattermostWebhookUrl', [
  'mattermostchannel',
  'mattermostusername',
  'mattermosticonurl',
  'mattermosticonemo',
]);
PROVIDER_TABLE['rocket.chat'] = chatProvider('rocketchat', 'rocketwebhookURL', [
  'rocketchannel',
  'rocketusername',
  'rocketiconemo',
]);
PROVIDER_TABLE.GoogleChat = chatProvider('googlechat', 'googleChatWebhookURL', ['googleChatUseTemplate']);

/** A Map: the types looked up come from the file. */
const PROVIDERS = new Map(Object.entries({ ...PROVIDER_TABLE, ...KUMA_PUSH_PROVIDERS, ...KUMA_ALERTING_PROVIDERS }));
