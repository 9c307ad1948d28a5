// Discord guilds: the public widget or a bot's view of the guild.
import { z } from 'zod';
import { httpUrl, minPlayers, secret } from './fields.js';
import { defineProbe } from './probe.js';

export const discordConfig = z
  .object({
    mode: z.enum(['widget', 'bot']).default('widget').describe('widget: the public guild widget; bot: a bot in the guild.'),
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

export const discord = defineProbe({
  id: 'discord',
  label: 'Discord',
  runsOn: ['edge', 'relay'],
  config: discordConfig,
  secrets: ['botToken'],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
