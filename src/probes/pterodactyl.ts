// Pterodactyl and Pelican panels: the client API's resource usage of one server.
import { z } from 'zod';
import { httpUrl, secret } from './fields.js';
import { defineProbe } from './probe.js';

export const pterodactylConfig = z
  .object({
    panelUrl: httpUrl().describe('Base URL of the panel, e.g. https://panel.example.com.'),
    serverId: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'expected the server identifier shown in the panel URL' }),
    apiKey: secret('client API key'),
  })
  .strict();

export const pterodactyl = defineProbe({
  id: 'pterodactyl',
  label: 'Pterodactyl / Pelican panel',
  runsOn: ['edge', 'relay'],
  config: pterodactylConfig,
  secrets: ['apiKey'],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
