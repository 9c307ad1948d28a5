// A panel server's planned restarts as one recurring maintenance window on the apply's page, covering the server's
// monitors (so their alerts keep quiet and their components show maintenance), announced to no one (no notices at
// each restart); removed when the schedules are gone.
import type { Maintenance } from '../../domain/incident.js';
import type { RecurrenceSlot } from '../../domain/recurrence.js';
import { organizationOf } from '../context.js';
import { createMaintenance, deleteMaintenance, updateMaintenance } from '../maintenance/write.js';
import { requirePage } from '../pages/read.js';
import type { ApplyOutcome } from './apply-objects.js';
import type { RestartPlan } from './panel-schedules.js';
import { type PanelProposal, RESTARTS_SUFFIX } from './proposals.js';

/** What apply did with a server's restart window; `removed`: its restart schedules are gone, and so is the window. */
export type RestartsOutcome = ApplyOutcome | 'removed';

export async function applyRestarts(
  ctx: Parameters<typeof createMaintenance>[0],
  slug: string,
  proposal: PanelProposal,
  plan: RestartPlan,
): Promise<RestartsOutcome | null> {
  const page = await requirePage(ctx, slug);
  const key = `${proposal.component.key}${RESTARTS_SUFFIX}`;
  const current = await ctx.store.maintenance.findByKey(page.id, key);
  if (current && current.managedBy !== 'api') return 'skipped';
  const monitors = await serverMonitors(ctx, proposal);
  // A window naming no monitor would cover the whole page: none is made without one.
  if (plan.slots.length === 0 || monitors.length === 0) {
    if (!current) return null;
    await deleteMaintenance(ctx, { slug, id: current.id });
    return 'removed';
  }
  const wanted = {
    title: `Planned restart: ${proposal.name}`.slice(0, 200),
    description: `Restart schedules on the panel: ${plan.schedules.join(', ')}`.slice(0, 2000),
    recurrence: plan.slots,
    components: [] as string[],
    monitors: monitors.map((m) => m.key),
    // Quiet: a daily restart alerts no one (issue 36); the page still shows it and its monitors keep quiet.
    announce: false,
  };
  if (!current) {
    await createMaintenance(ctx, { slug, key, ...wanted });
    return 'created';
  }
  if (sameWindow(current, wanted, monitors)) return 'unchanged';
  await updateMaintenance(ctx, { slug, id: current.id, ...wanted });
  return 'updated';
}

/** The server's monitors that exist (its game monitor and its resource monitor), whoever made them. */
async function serverMonitors(
  ctx: Parameters<typeof createMaintenance>[0],
  proposal: PanelProposal,
): Promise<{ id: string; key: string }[]> {
  const keys = [proposal.monitor?.key, proposal.resourceMonitor.key].filter((k): k is string => k !== undefined);
  const found = await Promise.all(keys.map((key) => ctx.store.monitors.findByKey(organizationOf(ctx), key)));
  return found.flatMap((m) => (m ? [{ id: m.id, key: m.key }] : []));
}

function sameWindow(
  current: Maintenance,
  wanted: { title: string; description: string; recurrence: RecurrenceSlot[] },
  monitors: { id: string }[],
): boolean {
  const ids = (list: readonly string[]) => [...list].sort().join(',');
  return (
    current.title === wanted.title &&
    current.description === wanted.description &&
    slotsText(current.recurrence ?? []) === slotsText(wanted.recurrence) &&
    current.componentIds.length === 0 &&
    !current.announce &&
    ids(current.monitorIds) === ids(monitors.map((m) => m.id))
  );
}

function slotsText(slots: readonly RecurrenceSlot[]): string {
  return JSON.stringify(slots.map((s) => [s.rrule ?? null, s.cron ?? null, s.timezone, s.durationMin]));
}
