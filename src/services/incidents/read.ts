// Reads a page's incidents (newest first), or one, by id on a page or by id alone.
import { NotFoundError } from '../../domain/errors.js';
import type { Incident } from '../../domain/incident.js';
import type { Page } from '../../domain/page.js';
import { componentKeysById, requireOnPage } from '../components/refs.js';
import { organizationOf, readVerb, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';
import { incidentListInput, incidentRefInput } from './schema.js';
import { type IncidentView, incidentView } from './view.js';

export const listIncidents = readVerb(incidentListInput, async (ctx, { slug, limit }): Promise<IncidentView[]> => {
  const page = await requirePage(ctx, slug);
  const [incidents, componentKeys] = await Promise.all([
    ctx.store.incidents.list(page.id, { limit }),
    componentKeysById(ctx, page.id),
  ]);
  return incidents.map((i) => incidentView(i, componentKeys));
});

export const getIncident = readVerb(incidentRefInput, async (ctx, { slug, id }): Promise<IncidentView> => {
  const { page, item } = await requireOnPage(ctx, slug, id, 'incident', ctx.store.incidents.findById);
  return incidentView(item, await componentKeysById(ctx, page.id));
});

/** An incident of the organization by id alone, with its page. */
export async function requireIncident(ctx: ServiceContext, id: string): Promise<{ page: Page; item: Incident }> {
  const item = await ctx.store.incidents.findById(id);
  const page = item && (await ctx.store.pages.findById(item.pageId));
  if (!item || !page || page.organizationId !== organizationOf(ctx)) throw new NotFoundError('incident', id);
  return { page, item };
}
