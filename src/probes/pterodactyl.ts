// Pterodactyl and Pelican panels: the client API's resource usage of one server.
import { z } from 'zod';
import { formatBytes, HTTP_GET_LIMITS, httpGet } from '../net/http-get.js';
import { httpUrl, secret } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

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
  config: pterodactylConfig,
  secrets: ['apiKey'],
  targets: ['panelUrl'],
  probe: async (config, ctx): Promise<ProbeResult> => {
    const url = `${config.panelUrl.replace(/\/+$/, '')}/api/client/servers/${encodeURIComponent(config.serverId)}/resources`;
    // Redirects are not followed: the key would travel to wherever the panel points, and the fix is a better panelUrl.
    const result = await httpGet({
      url,
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      ...ctx,
    });
    if (!result.ok) return { ok: false, error: result.error };
    const { response } = result;
    const failure = statusError(response.status, response.headers.location, url);
    if (failure) return { ok: false, error: failure };
    if (response.truncated)
      return { ok: false, error: `the panel's answer is larger than ${formatBytes(HTTP_GET_LIMITS.bodyBytes)}` };
    const stats = parseStats(response.body.toString('utf8'));
    if (!stats)
      return { ok: false, error: "the panel's answer is not the client API's resource stats (is panelUrl right?)" };

    const data = {
      state: stats.current_state,
      cpuPercent: Math.round(stats.resources.cpu_absolute * 10) / 10,
      memoryBytes: stats.resources.memory_bytes,
      diskBytes: stats.resources.disk_bytes,
      networkRxBytes: stats.resources.network_rx_bytes,
      networkTxBytes: stats.resources.network_tx_bytes,
      uptimeMs: stats.resources.uptime,
      suspended: stats.is_suspended,
    };
    if (stats.is_suspended) return { ok: false, error: 'server is suspended', data };
    if (stats.current_state !== 'running') return { ok: false, error: `server is ${stats.current_state}`, data };
    return {
      ok: true,
      latencyMs: response.latencyMs,
      message: `running, CPU ${data.cpuPercent}%, memory ${formatBytes(data.memoryBytes)}`,
      data,
    };
  },
});

function statusError(status: number, location: string | undefined, url: string): string | undefined {
  if (status === 200) return undefined;
  if (status === 401 || status === 403) return 'the panel rejected the API key';
  if (status === 404) return 'server not found on the panel';
  if (status === 429) return 'the panel is rate limiting requests (HTTP 429)';
  if (status >= 300 && status < 400 && location)
    return `the panel redirects to ${redirectOrigin(location, url)}; set panelUrl to that address`;
  return `the panel answered HTTP ${status}`;
}

/** Only the origin of a redirect is shown: its path may carry anything. */
function redirectOrigin(location: string, url: string): string {
  try {
    return new URL(location, url).origin;
  } catch {
    return 'another address';
  }
}

/** The client API's answer, checked: a number that is not a number would show as nonsense on a status page. */
const statsSchema = z.object({
  object: z.literal('stats'),
  attributes: z.object({
    current_state: z.string().max(32),
    is_suspended: z.boolean().default(false),
    resources: z.object({
      memory_bytes: z.number().nonnegative(),
      cpu_absolute: z.number().nonnegative(),
      disk_bytes: z.number().nonnegative(),
      network_rx_bytes: z.number().nonnegative().default(0),
      network_tx_bytes: z.number().nonnegative().default(0),
      uptime: z.number().nonnegative().default(0),
    }),
  }),
});

function parseStats(body: string): z.output<typeof statsSchema>['attributes'] | undefined {
  try {
    const parsed = statsSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.attributes : undefined;
  } catch {
    return undefined;
  }
}
