// Source RCON over TCP (also Minecraft's RCON): authenticate, run a command, match its output.
import { z } from 'zod';
import { host, port, secret } from './fields.js';
import { defineProbe } from './probe.js';

export const rconConfig = z
  .object({
    host: host(),
    port: port().default(27015).describe('27015 for Source games, 25575 for Minecraft.'),
    password: secret('RCON password'),
    command: z.string().min(1).max(512).default('status').describe('The command to run.'),
    expect: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('Text the output must contain, or a /regular expression/ it must match.'),
  })
  .strict();

export const rcon = defineProbe({
  id: 'rcon',
  label: 'RCON',
  runsOn: ['edge', 'relay'],
  config: rconConfig,
  secrets: ['password'],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
