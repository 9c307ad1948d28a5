// Steam / Source servers: Valve A2S_INFO over UDP.
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { defineProbe } from './probe.js';

export const sourceConfig = z
  .object({
    host: host(),
    port: port().default(27015).describe('The query port (usually the game port).'),
    minPlayers: minPlayers(),
  })
  .strict();

export const source = defineProbe({
  id: 'source',
  label: 'Steam / Source (A2S) server',
  runsOn: ['edge', 'relay'],
  config: sourceConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
