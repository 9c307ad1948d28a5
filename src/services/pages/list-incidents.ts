// The incidents of a public page for AI readers: active ones from the cached snapshot, resolved ones from the store.
import { z } from 'zod';
import { DAY_MS } from '../../domain/check.js';
import type { Incident } from '../../domain/incident.js';
import type { SnapshotIncident, SnapshotPage } from '../../domain/snapshot.js';
import { AI_LIMITS } from '../ai-limits.js';
import { parseInput } from '../context.js';
import type { PagesContext } from '../runtime.js';
import { type PublicScope, requirePublicPage } from './list-public-pages.js';

const { limit, days } = AI_LIMITS.incidents;

/** A slug as list_status_pages gives it; anything else simply finds no page. */
export const publicSlugSchema = z
  .string()
  .min(1)
  .max(64)
  .describe('the slug of a status page, from list_status_pages (1–64 characters)');

export const publicIncidentQuerySchema = z
  .object({
    slug: publicSlugSchema,
    limit: z
      .number()
      .int()
      .min(limit.min)
      .max(limit.max)
      .default(limit.default)
      .describe(`how many incidents, ${limit.min}–${limit.max}`),
    includeResolved: z.boolean().default(false).describe('also list incidents resolved within `days`'),
    days: z
      .number()
      .int()
      .min(days.min)
      .max(days.max)
      .default(days.default)
      .describe(`how far back resolved incidents go, ${days.min}–${days.max} days`),
  })
  .strict();

export interface PublicIncidents {
  page: SnapshotPage;
  incidents: SnapshotIncident[];
}

/**
 * The incidents of an exposed page, newest first: only the active ones, or also those resolved within `days` (an
 * active incident is always listed). Throws NotFoundError for an unknown or hidden page (see requirePublicPage).
 */
export async function listPublicIncidents(
  ctx: Pick<PagesContext, 'pages' | 'store' | 'clock'>,
  input: z.input<typeof publicIncidentQuerySchema> & PublicScope,
): Promise<PublicIncidents> {
  const { slug, ...query } = parseInput(publicIncidentQuerySchema, {
    slug: input.slug,
    limit: input.limit,
    includeResolved: input.includeResolved,
    days: input.days,
  });
  const page = requirePublicPage(ctx, { slug, host: input.host });
  const { snapshot } = await ctx.pages.get(page);
  // What is active now is the snapshot's word, so get_status and list_incidents never disagree.
  if (!query.includeResolved) return { page: snapshot.page, incidents: snapshot.activeIncidents.slice(0, query.limit) };
  const since = ctx.clock.now() - query.days * DAY_MS;
  const stored = await ctx.store.incidents.list(page.id, { since, limit: query.limit });
  const names = new Map(snapshot.components.map((c) => [c.id, c.name]));
  return { page: snapshot.page, incidents: stored.map((incident) => publicIncident(incident, names)) };
}

/** The snapshot's shape of an incident: affected components by id and name, updates oldest first. */
function publicIncident(incident: Incident, names: ReadonlyMap<string, string>): SnapshotIncident {
  return {
    id: incident.id,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    components: incident.componentIds
      .filter((id) => names.has(id))
      .map((id) => ({ id, name: names.get(id) as string })),
    updates: incident.updates.map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.at })),
  };
}
