// Rust servers: WebRCON over WebSocket, asking `serverinfo`.
import { z } from 'zod';
import { host, minPlayers, port, secret } from './fields.js';
import { defineProbe } from './probe.js';

export const rustWebrconConfig = z
  .object({
    host: host(),
    port: port().default(28016).describe('The RCON port (rcon.port).'),
    password: secret('RCON password'),
    minPlayers: minPlayers(),
  })
  .strict();

export const rustWebrcon = defineProbe({
  id: 'rust-webrcon',
  label: 'Rust server (WebRCON)',
  runsOn: ['edge', 'relay'],
  config: rustWebrconConfig,
  secrets: ['password'],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
