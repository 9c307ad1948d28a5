// Applying a panel's proposals: monitors, components and restart windows created or brought up to date through the
// usual write verbs, nothing touched that apply did not make (keys starting `ptero-`, monitors tagged `pterodactyl`),
// and the objects of servers gone from the panel listed, or removed when asked to prune.
import type { z } from 'zod';
import { ValidationError, WardenError } from '../../domain/errors.js';
import { parseInput } from '../context.js';
import { probeTargetGuard } from '../monitors/run-check.js';
import { requirePage } from '../pages/read.js';
import { type ApplyOutcome, applyComponent, applyMonitor } from './apply-objects.js';
import { applyRestarts, type RestartsOutcome } from './apply-restarts.js';
import { discoverPanel, type PanelContext, panelApplyInput } from './discover.js';
import { readRestartPlan } from './panel-schedules.js';
import type { PanelProposal } from './proposals.js';
import { type GoneServer, goneServers, removeGone } from './prune.js';

export type { ApplyOutcome } from './apply-objects.js';

export interface PanelServerReport {
  identifier: string;
  name: string;
  monitor: ApplyOutcome | null;
  resourceMonitor: ApplyOutcome | null;
  component: ApplyOutcome | null;
  /** The restart window; null when the server has no restart schedule (and had no window) or restarts is false. */
  restarts: RestartsOutcome | null;
  /** Why this server stopped part way (an alias that is no host name, the organization's monitor limit); null when done. */
  error: string | null;
}

export interface PanelApplyReport {
  servers: PanelServerReport[];
  truncated: boolean;
  /** Servers apply made objects for that the panel no longer lists, left in place. */
  gone: GoneServer[];
  /** The same, deleted (prune). */
  removed: GoneServer[];
}

type ApplyOptions = z.output<typeof panelApplyInput>;

/** Discovers again and applies: calling it again is the re-sync. */
export async function applyPanel(ctx: PanelContext, input: z.input<typeof panelApplyInput>): Promise<PanelApplyReport> {
  const options = parseInput(panelApplyInput, input);
  const { panelUrl, apiKey, page, servers: chosen, allServers } = options;
  await requirePage(ctx, page);
  const { proposals, truncated } = await discoverPanel(ctx, { panelUrl, apiKey, allServers });
  const known = new Set(proposals.map((p) => p.identifier));
  const missing = (chosen ?? []).filter((identifier) => !known.has(identifier));
  if (missing.length > 0)
    throw new ValidationError([{ path: 'servers', message: `no server "${missing[0]}" on the panel for this key` }]);
  const wanted = chosen === undefined ? proposals : proposals.filter((p) => chosen.includes(p.identifier));
  const reports: PanelServerReport[] = [];
  for (const proposal of wanted) {
    const report = emptyReport(proposal);
    reports.push(report);
    // One server's refusal is reported with it (after what it got so far); the others still apply.
    await applyServer(ctx, proposal, options, report).catch((error: unknown) => {
      if (!(error instanceof WardenError)) throw error;
      report.error = refusal(error);
    });
  }
  const gone = await goneServers(ctx, page, panelUrl, new Set(proposals.map((p) => p.component.key)));
  // Only a whole listing proves a server gone: a truncated one (or an empty one, as a key without root admin rights
  // sees with allServers) removes nothing.
  if (!options.prune || truncated || proposals.length === 0 || gone.length === 0)
    return { servers: reports, truncated, gone, removed: [] };
  await removeGone(ctx, page, gone);
  return { servers: reports, truncated, gone: [], removed: gone };
}

function emptyReport(proposal: PanelProposal): PanelServerReport {
  const { identifier, name } = proposal;
  return { identifier, name, monitor: null, resourceMonitor: null, component: null, restarts: null, error: null };
}

function refusal(error: WardenError): string {
  const issues = error instanceof ValidationError ? error.issues.map((i) => `${i.path}: ${i.message}`) : [];
  return issues.length > 0 ? issues.join('; ') : error.message;
}

async function applyServer(
  ctx: PanelContext,
  proposal: PanelProposal,
  options: ApplyOptions,
  report: PanelServerReport,
): Promise<void> {
  const { page: slug, resources, apiKey } = options;
  if (proposal.monitor) report.monitor = await applyMonitor(ctx, proposal.monitor);
  if (resources) {
    const { config } = proposal.resourceMonitor;
    report.resourceMonitor = await applyMonitor(ctx, { ...proposal.resourceMonitor, config: { ...config, apiKey } });
  }
  // Without a game monitor, the component follows the resource monitor, when there is one.
  const follows = proposal.monitor ? proposal.monitor.key : resources ? proposal.resourceMonitor.key : null;
  report.component = await applyComponent(ctx, slug, { ...proposal.component, monitor: follows });
  if (!options.restarts) return;
  const guard = await probeTargetGuard(ctx);
  const plan = await readRestartPlan({ panelUrl: options.panelUrl, apiKey, guard }, proposal.identifier, options);
  // Schedules the panel would not show leave the window as it was.
  if ('error' in plan) report.error = plan.error;
  else report.restarts = await applyRestarts(ctx, slug, proposal, plan);
}
