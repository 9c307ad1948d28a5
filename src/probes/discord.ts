// Discord guilds: the public widget or a bot's view of the guild.
import { z } from 'zod';
import { bodyJson, formatBytes, HTTP_GET_LIMITS, type HttpGetResponse, httpGet } from '../net/http-get.js';
import { httpUrl, minPlayers, secret } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

export const discordConfig = z
  .object({
    mode: z
      .enum(['widget', 'bot'])
      .default('widget')
      .describe('widget: the public guild widget; bot: a bot in the guild.'),
    guildId: z.string().regex(/^\d{15,22}$/, { error: 'expected a guild id (a snowflake of digits)' }),
    botToken: secret('bot token').optional().describe('Required in bot mode.'),
    apiBaseUrl: httpUrl().default('https://discord.com/api/v10'),
    minPlayers: minPlayers(),
  })
  .strict()
  .refine((c) => c.mode !== 'bot' || c.botToken !== undefined, {
    path: ['botToken'],
    error: 'required when mode is bot',
  });

export type DiscordConfig = z.output<typeof discordConfig>;

export const discord = defineProbe({
  id: 'discord',
  label: 'Discord',
  config: discordConfig,
  secrets: ['botToken'],
  targets: ['apiBaseUrl'],
  probe: (config, ctx) => (config.mode === 'bot' ? checkWithBot(config, ctx) : checkWidget(config, ctx)),
});

/** Discord's JSON error code for a guild whose widget is turned off. */
const WIDGET_DISABLED = 50004;
const UNKNOWN_GUILD = 10004;
const tooLarge = `Discord's answer is larger than ${formatBytes(HTTP_GET_LIMITS.bodyBytes)}`;
/** Longest guild name kept. */
const NAME_CHARS = 100;

async function checkWidget(config: DiscordConfig, ctx: ProbeContext): Promise<ProbeResult> {
  const url = `${apiBase(config)}/guilds/${config.guildId}/widget.json`;
  const result = await httpGet({ ...ctx, url, headers: { accept: 'application/json' } });
  if (!result.ok) return { ok: false, error: result.error };
  const { response } = result;
  const body = record(bodyJson(response));
  if (response.status !== 200) {
    if (response.status === 403 && body.code === WIDGET_DISABLED)
      return { ok: false, error: "the guild's widget is disabled" };
    if (response.status === 404 || body.code === UNKNOWN_GUILD)
      return { ok: false, error: 'guild not found (check guildId)' };
    return { ok: false, error: otherStatus(response) };
  }
  if (response.truncated) return { ok: false, error: tooLarge };
  const players = typeof body.presence_count === 'number' ? body.presence_count : undefined;
  if (players === undefined) return { ok: false, error: 'the widget answer has no presence count' };
  const data = { name: name(body.name), players, instantInvite: typeof body.instant_invite === 'string' };
  return counted(config, response, data, `${players} online`);
}

async function checkWithBot(config: DiscordConfig, ctx: ProbeContext): Promise<ProbeResult> {
  const url = `${apiBase(config)}/guilds/${config.guildId}?with_counts=true`;
  const headers = { authorization: `Bot ${config.botToken ?? ''}`, accept: 'application/json' };
  // Redirects are not followed, so the token only ever goes to apiBaseUrl.
  const result = await httpGet({ ...ctx, url, headers });
  if (!result.ok) return { ok: false, error: result.error };
  const { response } = result;
  if (response.status === 401) return { ok: false, error: 'the bot token was rejected' };
  if (response.status === 403 || response.status === 404) return { ok: false, error: 'the bot cannot see this guild' };
  if (response.status !== 200) return { ok: false, error: otherStatus(response) };
  if (response.truncated) return { ok: false, error: tooLarge };
  const body = record(bodyJson(response));
  const players = body.approximate_presence_count;
  const members = body.approximate_member_count;
  if (typeof players !== 'number' || typeof members !== 'number')
    return { ok: false, error: 'the guild answer has no member counts' };
  const data = { name: name(body.name), players, members };
  return counted(config, response, data, `${players} online, ${members} members`);
}

function counted(
  config: DiscordConfig,
  response: HttpGetResponse,
  data: Record<string, unknown> & { players: number },
  summary: string,
): ProbeResult {
  const degraded = config.minPlayers !== undefined && data.players < config.minPlayers;
  return {
    ok: true,
    latencyMs: response.latencyMs,
    message: summary + (degraded ? ` (fewer than ${config.minPlayers})` : ''),
    data,
    degraded,
  };
}

function otherStatus(response: HttpGetResponse): string {
  if (response.status === 429) return 'Discord is rate limiting requests (HTTP 429)';
  if (response.status >= 300 && response.status < 400)
    return `Discord answered with a redirect (HTTP ${response.status}); check apiBaseUrl`;
  return `Discord answered HTTP ${response.status}`;
}

function apiBase(config: DiscordConfig): string {
  return config.apiBaseUrl.replace(/\/+$/, '');
}

function name(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, NAME_CHARS) : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
