// FiveM and RedM servers: the server's own HTTP endpoints (/info.json, /players.json, /dynamic.json).
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { defineProbe } from './probe.js';

export const fivemConfig = z
  .object({
    host: host(),
    port: port().default(30120),
    https: z.boolean().default(false).describe('Use https:// instead of http://.'),
    minPlayers: minPlayers(),
  })
  .strict();

export const fivem = defineProbe({
  id: 'fivem',
  label: 'FiveM / RedM server',
  runsOn: ['edge', 'relay'],
  config: fivemConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
