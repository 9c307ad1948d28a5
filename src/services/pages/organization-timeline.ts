// The incidents and maintenance windows of all an organization's pages, each naming its page: the dashboard's
// Incidents and Maintenance screens in one request each, whatever the number of pages.
import { z } from 'zod';
import { queryIntIn } from '../../domain/fields.js';
import { API_LIMITS } from '../api-limits.js';
import { monitorKeysById } from '../components/refs.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { incidentView, incidentViewSchema } from '../incidents/view.js';
import { maintenanceView, maintenanceViewSchema } from '../maintenance/view.js';

const pageRefSchema = z.object({ slug: z.string(), title: z.string() }).describe('The page it is on.');

export const organizationIncidentSchema = incidentViewSchema.extend({ page: pageRefSchema });
export const organizationMaintenanceSchema = maintenanceViewSchema.extend({ page: pageRefSchema });
export type OrganizationIncident = z.infer<typeof organizationIncidentSchema>;
export type OrganizationMaintenance = z.infer<typeof organizationMaintenanceSchema>;

export const organizationIncidentQuerySchema = z.object({
  state: z
    .enum(['open', 'resolved'])
    .optional()
    .describe('open: not resolved yet; resolved: resolved ones; absent: both.'),
  limit: queryIntIn(1, API_LIMITS.incidentList.max)
    .default(API_LIMITS.incidentList.default)
    .describe('How many incidents, newest first.'),
});

export const organizationMaintenanceQuerySchema = z.object({
  endingAfter: queryIntIn(0, Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Only windows ending at or after this time (epoch ms); absent: every window.'),
});

/** Newest first, on every page of the organization. */
export async function listOrganizationIncidents(
  ctx: ServiceContext,
  input: z.input<typeof organizationIncidentQuerySchema>,
): Promise<OrganizationIncident[]> {
  const { state, limit } = parseInput(organizationIncidentQuerySchema, input);
  const organizationId = organizationOf(ctx);
  const [incidents, pages] = await Promise.all([
    ctx.store.incidents.listOfOrganization(organizationId, {
      ...(state ? { resolved: state === 'resolved' } : {}),
      limit,
    }),
    pagesOf(ctx, organizationId),
  ]);
  return incidents.flatMap((incident) => {
    const page = pages.get(incident.pageId);
    return page ? [{ ...incidentView(incident, page.componentKeys), page: page.ref }] : [];
  });
}

/** Soonest first, on every page of the organization. */
export async function listOrganizationMaintenance(
  ctx: ServiceContext,
  input: z.input<typeof organizationMaintenanceQuerySchema>,
): Promise<OrganizationMaintenance[]> {
  const { endingAfter = 0 } = parseInput(organizationMaintenanceQuerySchema, input);
  const organizationId = organizationOf(ctx);
  const [windows, pages, monitors] = await Promise.all([
    ctx.store.maintenance.listOfOrganization(organizationId, endingAfter),
    pagesOf(ctx, organizationId),
    monitorKeysById(ctx),
  ]);
  return windows.flatMap((window) => {
    const page = pages.get(window.pageId);
    if (!page) return [];
    return [
      { ...maintenanceView(window, { components: page.componentKeys, monitors }, ctx.clock.now()), page: page.ref },
    ];
  });
}

/** Each page's slug and title, and its component keys in page order (for the views' `components`). */
async function pagesOf(ctx: ServiceContext, organizationId: string) {
  const [pages, components] = await Promise.all([
    ctx.store.pages.list(organizationId),
    ctx.store.components.listOfOrganization(organizationId),
  ]);
  const byId = new Map(
    pages.map((p) => [p.id, { ref: { slug: p.slug, title: p.title }, componentKeys: new Map<string, string>() }]),
  );
  for (const c of components) byId.get(c.pageId)?.componentKeys.set(c.id, c.key);
  return byId;
}
