// A page's draft incidents, as operators see them: listed, published (one call, the text editable) or discarded.
// Publishing opens the incident through createIncident, so it is told to subscribers like any other.
import { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { queryIntIn, reference } from '../../domain/fields.js';
import { incidentFields } from '../../domain/incident.js';
import { DRAFT_STATUSES, type IncidentDraft } from '../../domain/incident-draft.js';
import { componentKeysById, requireOnPage } from '../components/refs.js';
import { readVerb, type ServiceContext, writeVerb } from '../context.js';
import { requirePage } from '../pages/read.js';
import type { IncidentView } from './view.js';
import { createIncident } from './write.js';

export const draftListQuerySchema = z.object({
  status: z
    .enum(DRAFT_STATUSES)
    .default('draft')
    .describe('draft: waiting for an operator (the default); published or discarded: what became of earlier ones.'),
  limit: queryIntIn(1, 200).default(50).describe('How many drafts, newest spell first.'),
});

export const draftPublishSchema = z
  .object({
    title: incidentFields.title.optional().describe("Replaces the draft's title."),
    message: incidentFields.message.optional().describe("Replaces the draft's first update."),
    impact: incidentFields.impact.default('major'),
  })
  .strict();

export const incidentDraftViewSchema = z.object({
  id: z.string(),
  component: z.string().describe('Key of the component that is down.'),
  componentId: z.string(),
  downSince: z.number().int().describe('When the component went down: the spell the draft is about.'),
  title: z.string(),
  message: z.string().describe('The first update the incident will carry.'),
  status: z.enum(DRAFT_STATUSES),
  discardedReason: z
    .enum(['recovered', 'operator'])
    .nullable()
    .describe('recovered: the component came back before anyone published it; operator: discarded by hand.'),
  incidentId: z.string().nullable().describe('The incident it became, once published.'),
  createdAt: z.number().int(),
});
export type IncidentDraftView = z.infer<typeof incidentDraftViewSchema>;

const one = z.object({ slug: reference(), id: reference() });

export const listIncidentDrafts = readVerb(
  draftListQuerySchema.extend({ slug: reference() }),
  async (ctx, { slug, status, limit }): Promise<IncidentDraftView[]> => {
    const page = await requirePage(ctx, slug);
    const [drafts, keys] = await Promise.all([
      ctx.store.incidentDrafts.list(page.id, status, limit),
      componentKeysById(ctx, page.id),
    ]);
    return drafts.map((d) => draftView(d, keys));
  },
);

/** Publishes a waiting draft as an incident (its title and first update as given, else the draft's). */
export const publishIncidentDraft = writeVerb(
  draftPublishSchema.extend(one.shape),
  async (tx, { slug, id, title, message, impact }): Promise<IncidentView> => {
    const { item } = await waitingDraft(tx, slug, id);
    const keys = await componentKeysById(tx, item.pageId);
    const incident = await createIncident(tx, {
      slug,
      title: title ?? item.title,
      message: message ?? item.message,
      impact,
      components: [keys.get(item.componentId) ?? item.componentId],
      startedAt: item.downSince,
    });
    if (!(await tx.store.incidentDrafts.settle(item.id, { status: 'published', incidentId: incident.id }, now(tx))))
      throw new ConflictError('the draft was published or discarded meanwhile');
    return incident;
  },
);

/** Discards a waiting draft: nothing is published for this spell. */
export const discardIncidentDraft = writeVerb(one, async (tx, { slug, id }): Promise<IncidentDraftView> => {
  const { page, item } = await waitingDraft(tx, slug, id);
  if (!(await tx.store.incidentDrafts.settle(item.id, { status: 'discarded', reason: 'operator' }, now(tx))))
    throw new ConflictError('the draft was published or discarded meanwhile');
  const settled = (await tx.store.incidentDrafts.findById(item.id)) ?? item;
  return draftView(settled, await componentKeysById(tx, page.id));
});

async function waitingDraft(ctx: ServiceContext, slug: string, id: string) {
  const found = await requireOnPage(ctx, slug, id, 'incident draft', ctx.store.incidentDrafts.findById);
  if (found.item.status !== 'draft') throw new ConflictError(`the draft was ${found.item.status} already`);
  return found;
}

const now = (ctx: ServiceContext) => ctx.clock.now();

function draftView(d: IncidentDraft, keys: ReadonlyMap<string, string>): IncidentDraftView {
  return {
    id: d.id,
    component: keys.get(d.componentId) ?? d.componentId,
    componentId: d.componentId,
    downSince: d.downSince,
    title: d.title,
    message: d.message,
    status: d.status,
    discardedReason: d.discardedReason,
    incidentId: d.incidentId,
    createdAt: d.createdAt,
  };
}
