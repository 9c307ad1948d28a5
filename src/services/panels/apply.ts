// Applying a panel's proposals: monitors and components created or brought up to date through the usual write verbs,
// and nothing touched that apply did not make (keys starting `ptero-`, monitors tagged `pterodactyl`).
import type { z } from 'zod';
import { ValidationError, WardenError } from '../../domain/errors.js';
import { createComponent, updateComponent } from '../components/write.js';
import { organizationOf, parseInput } from '../context.js';
import type { monitorCreateSchema } from '../monitors/schema.js';
import { updateMonitor } from '../monitors/update.js';
import { createMonitor } from '../monitors/write.js';
import { requirePage } from '../pages/read.js';
import { discoverPanel, type PanelContext, panelApplyInput } from './discover.js';
import { PANEL_TAG, type PanelProposal, type ProposedMonitor } from './proposals.js';

/** skipped: an object with the key exists that apply did not make (or warden.yaml manages, or of another type). */
export type ApplyOutcome = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface PanelServerReport {
  identifier: string;
  name: string;
  monitor: ApplyOutcome | null;
  resourceMonitor: ApplyOutcome | null;
  component: ApplyOutcome | null;
  /** Why this server stopped part way (an alias that is no host name, the organization's monitor limit); null when done. */
  error: string | null;
}

export interface PanelApplyReport {
  servers: PanelServerReport[];
  truncated: boolean;
}

/** Discovers again and applies: calling it again is the re-sync. */
export async function applyPanel(ctx: PanelContext, input: z.input<typeof panelApplyInput>): Promise<PanelApplyReport> {
  const { panelUrl, apiKey, page, servers: chosen, resources } = parseInput(panelApplyInput, input);
  await requirePage(ctx, page);
  const { proposals, truncated } = await discoverPanel(ctx, { panelUrl, apiKey });
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
    await applyServer(ctx, proposal, page, resources ? apiKey : undefined, report).catch((error: unknown) => {
      if (!(error instanceof WardenError)) throw error;
      report.error = refusal(error);
    });
  }
  return { servers: reports, truncated };
}

function emptyReport(proposal: PanelProposal): PanelServerReport {
  const { identifier, name } = proposal;
  return { identifier, name, monitor: null, resourceMonitor: null, component: null, error: null };
}

function refusal(error: WardenError): string {
  const issues = error instanceof ValidationError ? error.issues.map((i) => `${i.path}: ${i.message}`) : [];
  return issues.length > 0 ? issues.join('; ') : error.message;
}

async function applyServer(
  ctx: PanelContext,
  proposal: PanelProposal,
  slug: string,
  apiKey: string | undefined,
  report: PanelServerReport,
): Promise<void> {
  if (proposal.monitor) report.monitor = await applyMonitor(ctx, proposal.monitor);
  if (apiKey !== undefined) {
    const { config } = proposal.resourceMonitor;
    report.resourceMonitor = await applyMonitor(ctx, { ...proposal.resourceMonitor, config: { ...config, apiKey } });
  }
  // Without a game monitor, the component follows the resource monitor, when there is one.
  const follows = proposal.monitor ? proposal.monitor.key : apiKey === undefined ? null : proposal.resourceMonitor.key;
  report.component = await applyComponent(ctx, slug, { ...proposal.component, monitor: follows });
}

async function applyMonitor(ctx: PanelContext, proposed: ProposedMonitor): Promise<ApplyOutcome> {
  const current = await ctx.store.monitors.findByKey(organizationOf(ctx), proposed.key);
  if (!current) {
    await createMonitor(ctx, proposed as z.input<typeof monitorCreateSchema>);
    return 'created';
  }
  if (current.managedBy !== 'api' || !current.tags.includes(PANEL_TAG) || current.type !== proposed.type)
    return 'skipped';
  const changed =
    current.name !== proposed.name ||
    Object.entries(proposed.config).some(([field, value]) => current.config[field] !== value);
  if (!changed) return 'unchanged';
  await updateMonitor(ctx, { id: current.id, name: proposed.name, config: proposed.config });
  return 'updated';
}

async function applyComponent(
  ctx: PanelContext,
  slug: string,
  proposed: { key: string; name: string; monitor: string | null },
): Promise<ApplyOutcome> {
  const page = await requirePage(ctx, slug);
  const current = (await ctx.store.components.list(page.id)).find((c) => c.key === proposed.key);
  const monitor = proposed.monitor === null ? undefined : proposed.monitor;
  if (!current) {
    await createComponent(ctx, { slug, key: proposed.key, name: proposed.name, ...(monitor ? { monitor } : {}) });
    return 'created';
  }
  if (current.managedBy !== 'api') return 'skipped';
  const monitorId = monitor ? ((await ctx.store.monitors.findByKey(organizationOf(ctx), monitor))?.id ?? null) : null;
  if (current.name === proposed.name && current.monitorId === monitorId) return 'unchanged';
  await updateComponent(ctx, { slug, id: current.id, name: proposed.name, monitor: monitor ?? null });
  return 'updated';
}
