// Reading alerts: the organization's (open, resolved or all; one monitor's), and one by id.
import { z } from 'zod';
import type { Alert } from '../../domain/alert.js';
import { NotFoundError } from '../../domain/errors.js';
import { queryIntIn, reference } from '../../domain/fields.js';
import { organizationOf, readVerb, type ServiceContext } from '../context.js';
import { requireMonitor } from '../monitors/read.js';
import { type AlertView, alertView } from './view.js';

export const alertListInput = z.object({
  state: z.enum(['open', 'resolved', 'all']).default('open').describe('open (the default), resolved, or all.'),
  monitor: reference().optional().describe("One monitor's alerts (its id or key)."),
  limit: queryIntIn(1, 500).default(100).describe('At most this many, newest first (1 to 500, default 100).'),
});

export const alertRefInput = z.object({ id: reference() });

export const listAlerts = readVerb(alertListInput, async (ctx, { state, monitor, limit }): Promise<AlertView[]> => {
  const organizationId = organizationOf(ctx);
  const monitorId = monitor === undefined ? undefined : (await requireMonitor(ctx, { id: monitor })).id;
  const alerts = await ctx.store.alerts.list({ organizationId, state, monitorId, limit });
  return viewsOf(ctx, alerts);
});

export const readAlert = readVerb(alertRefInput, async (ctx, { id }): Promise<AlertView> => {
  const [view] = await viewsOf(ctx, [await requireAlert(ctx, id)]);
  if (!view) throw new NotFoundError('alert', id);
  return view;
});

/** The organization's alert with this id: 404 for another organization's, as for an unknown one. */
export async function requireAlert(ctx: ServiceContext, id: string): Promise<Alert> {
  const alert = await ctx.store.alerts.findById(id);
  if (!alert || alert.organizationId !== organizationOf(ctx)) throw new NotFoundError('alert', id);
  return alert;
}

export async function viewsOf(ctx: ServiceContext, alerts: readonly Alert[]): Promise<AlertView[]> {
  if (alerts.length === 0) return [];
  const monitors = new Map(
    (await ctx.store.monitors.findByIds([...new Set(alerts.map((a) => a.monitorId))])).map((m) => [m.id, m]),
  );
  const policies = new Map(
    (await ctx.store.escalationPolicies.list(alerts[0]?.organizationId ?? '')).map((p) => [p.id, p]),
  );
  return alerts.flatMap((alert) => {
    const monitor = monitors.get(alert.monitorId);
    return monitor ? [alertView(alert, monitor, policies)] : [];
  });
}
