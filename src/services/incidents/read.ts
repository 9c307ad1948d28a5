// Reads a page's incidents (newest first), or one, by id on a page or by id alone.
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import type { Incident } from '../../domain/incident.js';
import type { Page } from '../../domain/page.js';
import { componentKeysById, requireOnPage } from '../components/refs.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';
import { incidentListInput, incidentRefInput } from './schema.js';
import { type IncidentView, incidentView } from './view.js';

export async function listIncidents(
  ctx: ServiceContext,
  input: z.input<typeof incidentListInput>,
): Promise<IncidentView[]> {
  const { slug, limit } = parseInput(incidentListInput, input);
  const page = await requirePage(ctx, slug);
  const [incidents, componentKeys] = await Promise.all([
    ctx.store.incidents.list(page.id, { limit }),
    componentKeysById(ctx, page.id),
  ]);
  return incidents.map((i) => incidentView(i, componentKeys));
}

export async function getIncident(ctx: ServiceContext, input: z.input<typeof incidentRefInput>): Promise<IncidentView> {
  const { slug, id } = parseInput(incidentRefInput, input);
  const { page, item } = await requireOnPage(ctx, slug, id, 'incident', ctx.store.incidents.findById);
  return incidentView(item, await componentKeysById(ctx, page.id));
}

/** An incident of the organization by id alone, with its page. */
export async function requireIncident(ctx: ServiceContext, id: string): Promise<{ page: Page; item: Incident }> {
  const item = await ctx.store.incidents.findById(id);
  const page = item && (await ctx.store.pages.findById(item.pageId));
  if (!item || !page || page.organizationId !== organizationOf(ctx)) throw new NotFoundError('incident', id);
  return { page, item };
}
