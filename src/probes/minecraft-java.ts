// Minecraft Java Edition: Server List Ping over TCP.
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { defineProbe } from './probe.js';

export const minecraftJavaConfig = z
  .object({
    host: host(),
    port: port().optional().describe('Defaults to the _minecraft._tcp SRV record of the host, then 25565.'),
    minPlayers: minPlayers(),
  })
  .strict();

export const minecraftJava = defineProbe({
  id: 'minecraft-java',
  label: 'Minecraft Java Edition server',
  runsOn: ['edge', 'relay'],
  config: minecraftJavaConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
