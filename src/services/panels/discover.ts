// Discovery: what a Pterodactyl or Pelican panel's client API key can see, proposed as monitors and components.
import { z } from 'zod';
import { reference } from '../../domain/fields.js';
import { isTimeZone } from '../../domain/zoned-time.js';
import { httpUrl, secret } from '../../probes/fields.js';
import { parseInput, type ServiceContext } from '../context.js';
import { type ProbeRunContext, probeTargetGuard } from '../monitors/run-check.js';
import { listPanelServers } from './panel-api.js';
import { type PanelProposal, proposalFor } from './proposals.js';

/** What reaching a panel needs besides the store: the probe-target policy its requests go out under. */
export type PanelContext = ServiceContext & Pick<ProbeRunContext, 'security'>;

export const panelDiscoverInput = z
  .object({
    panelUrl: httpUrl().describe('Base URL of the panel, e.g. https://panel.example.com.'),
    apiKey: secret('client API key').describe(
      'A client API key (ptlc_…) of a user who can see the servers; used for this request only, never stored by discovery.',
    ),
    allServers: z
      .boolean()
      .default(false)
      .describe(
        "Every server of the panel (`?type=admin-all`), not only the key's own: needs a root admin's client key (any other key sees none).",
      ),
  })
  .strict();

export const panelApplyInput = panelDiscoverInput
  .extend({
    page: reference().describe('Slug of the page the components go on.'),
    servers: z
      .array(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'expected a server identifier' }))
      .max(500)
      .optional()
      .describe('Identifiers of the servers to apply; all of them when absent.'),
    resources: z
      .boolean()
      .default(false)
      .describe("Also create the panel's resource monitor of each server (stores the key in that monitor's config)."),
    restarts: z
      .boolean()
      .default(true)
      .describe(
        "Make each server's restart schedules (active ones with a power restart, stop or kill, or a stop/restart command) a recurring maintenance window on `page`, `ptero-<identifier>-restarts`.",
      ),
    timezone: z
      .string()
      .max(100)
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
      .default('UTC')
      .describe("The panel's time zone (its APP_TIMEZONE), which its schedules' cron is read in."),
    restartMinutes: z
      .number()
      .int()
      .min(1)
      .max(120)
      .default(5)
      .describe(
        'How long a restart lasts, in minutes, after the task that restarts (tasks before it add their offsets).',
      ),
    prune: z
      .boolean()
      .default(false)
      .describe(
        "Delete the monitors, components and restart windows apply made for this panel's servers that the panel no longer lists (only when it listed them all): they are reported in `removed`; without prune, in `gone`.",
      ),
  })
  .strict();

export interface PanelDiscovery {
  proposals: PanelProposal[];
  truncated: boolean;
}

/** Reads the panel and proposes; nothing is written. */
export async function discoverPanel(
  ctx: PanelContext,
  input: z.input<typeof panelDiscoverInput>,
): Promise<PanelDiscovery> {
  const { panelUrl, apiKey, allServers } = parseInput(panelDiscoverInput, input);
  const { servers, truncated } = await listPanelServers(panelUrl, apiKey, await probeTargetGuard(ctx), { allServers });
  return { proposals: servers.map((server) => proposalFor(server, panelUrl)), truncated };
}
