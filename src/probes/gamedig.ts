// Any game GameDig knows; runs on relays only, where the gamedig package is loaded.
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { defineProbe } from './probe.js';

export const gamedigConfig = z
  .object({
    game: z
      .string()
      .regex(/^[a-z0-9_-]{1,64}$/, { error: 'expected a GameDig game id such as "valheim"' })
      .describe('GameDig game id.'),
    host: host(),
    port: port().optional().describe("Defaults to the game's usual query port."),
    minPlayers: minPlayers(),
  })
  .strict();

export const gamedig = defineProbe({
  id: 'gamedig',
  label: 'Any game (via relay)',
  runsOn: ['relay'],
  config: gamedigConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
