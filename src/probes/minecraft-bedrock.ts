// Minecraft Bedrock Edition: RakNet Unconnected Ping over UDP.
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { defineProbe } from './probe.js';

export const minecraftBedrockConfig = z
  .object({
    host: host(),
    port: port().default(19132),
    minPlayers: minPlayers(),
  })
  .strict();

export const minecraftBedrock = defineProbe({
  id: 'minecraft-bedrock',
  label: 'Minecraft Bedrock Edition server',
  runsOn: ['edge', 'relay'],
  config: minecraftBedrockConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
