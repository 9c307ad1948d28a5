// Opens, changes, updates and deletes incidents, and puts warden.yaml's (with their whole timeline): one path for both.
import type { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { type Incident, type IncidentSpec, incidentSpecChanged } from '../../domain/incident.js';
import { LIMITS } from '../../domain/limits.js';
import { assertWritable } from '../../domain/ownership.js';
import type { Page } from '../../domain/page.js';
import { publishIncidentNotice } from '../../notify/outbox/incidents.js';
import { componentKeysById, requireOnPage, resolveComponentRefs } from '../components/refs.js';
import { parseInput, type ServiceContext, writerOf, writeVerb } from '../context.js';
import { addToPage, deleteFromPage } from '../pages/children.js';
import { requirePage } from '../pages/read.js';
import { changed } from '../pages/write.js';
import { type PutOutcome, putByKey } from '../put.js';
import { requireIncident } from './read.js';
import {
  incidentCreateInput,
  incidentEntryInput,
  incidentPatchInput,
  incidentRefInput,
  incidentUpdateInput,
} from './schema.js';
import { type IncidentView, incidentView } from './view.js';

/** Opens an incident on a page (also on a config-managed page), with its first timeline entry. */
export const createIncident = writeVerb(
  incidentCreateInput,
  async (tx, { slug, message, components, ...entry }): Promise<IncidentView> => {
    const page = await requirePage(tx, slug);
    const now = tx.clock.now();
    const spec: IncidentSpec = {
      key: entry.key ?? null,
      title: entry.title,
      status: entry.status,
      impact: entry.impact,
      startedAt: entry.startedAt ?? now,
      resolvedAt: entry.status === 'resolved' ? now : null,
      componentIds: await resolveComponentRefs(tx, page.id, components),
      updates: [{ status: entry.status, message, at: now }],
    };
    const incident = await insertIncident(tx, page, spec);
    await publishIncidentNotice(tx, page, null, incident);
    return view(tx, page, incident);
  },
);

/** warden.yaml's incident, by key: created, or made to match the file (its timeline replaced). */
export const putIncident = writeVerb(
  incidentEntryInput,
  async (tx, { slug, components, ...entry }): Promise<{ incident: Incident; outcome: PutOutcome }> => {
    const page = await requirePage(tx, slug);
    const spec: IncidentSpec = {
      ...entry,
      resolvedAt:
        entry.resolvedAt ?? (entry.status === 'resolved' ? (entry.updates.at(-1)?.at ?? entry.startedAt) : null),
      componentIds: await resolveComponentRefs(tx, page.id, components),
    };
    const { value: incident, outcome } = await putByKey(tx, {
      label: `incident "${entry.key}" of page "${slug}"`,
      current: await tx.store.incidents.findByKey(page.id, entry.key),
      async create() {
        const incident = await insertIncident(tx, page, spec);
        await publishIncidentNotice(tx, page, null, incident);
        return incident;
      },
      spec: () => spec,
      changed: incidentSpecChanged,
      async update(current, spec, writer) {
        await tx.store.incidents.replace(current.id, spec, writer, () => newId('upd'), tx.clock.now());
        changed(tx, page);
        const incident = (await tx.store.incidents.findById(current.id)) ?? current;
        await publishIncidentNotice(tx, page, current, incident);
        return incident;
      },
    });
    return { incident, outcome };
  },
);

/** Changes an incident's title, impact, start or affected components. */
export const updateIncident = writeVerb(
  incidentPatchInput,
  async (tx, { slug, id, components, ...fields }): Promise<IncidentView> => {
    const { page, item } = await requireOnPage(tx, slug, id, 'incident', tx.store.incidents.findById);
    assertWritable(item, writerOf(tx), `incident "${item.key ?? item.id}" of page "${slug}"`);
    if (components !== undefined)
      await tx.store.incidents.setComponents(item.id, await resolveComponentRefs(tx, page.id, components));
    await tx.store.incidents.updateFields(item.id, fields, tx.clock.now());
    changed(tx, page);
    return view(tx, page, (await tx.store.incidents.findById(item.id)) ?? item);
  },
);

/** Posts an update to an incident's timeline: it sets the incident's status (resolved closes it, anything else reopens it). */
export const addIncidentUpdate = writeVerb(
  incidentUpdateInput,
  async (tx, { id, status, message, impact, components }): Promise<IncidentView> => {
    const { page, item } = await requireIncident(tx, id);
    assertWritable(item, writerOf(tx), `incident "${item.key ?? item.id}" of page "${page.slug}"`);
    if (item.updates.length >= LIMITS.updatesPerIncident)
      throw new ConflictError(`an incident has at most ${LIMITS.updatesPerIncident} updates; open a new incident`);
    const now = tx.clock.now();
    // The timeline stays in order even when two updates arrive within the same millisecond.
    const at = Math.max(now, (item.updates.at(-1)?.at ?? 0) + 1);
    await tx.store.incidents.addUpdate(item.id, { id: newId('upd'), status, message, at });
    if (components !== undefined)
      await tx.store.incidents.setComponents(item.id, await resolveComponentRefs(tx, page.id, components));
    await tx.store.incidents.updateFields(
      item.id,
      { status, resolvedAt: status === 'resolved' ? (item.resolvedAt ?? at) : null, impact },
      now,
    );
    changed(tx, page);
    const incident = (await tx.store.incidents.findById(item.id)) ?? item;
    await publishIncidentNotice(tx, page, item, incident);
    return view(tx, page, incident);
  },
);

/** Deletes an incident with its timeline. */
export async function deleteIncident(ctx: ServiceContext, input: z.input<typeof incidentRefInput>): Promise<void> {
  await deleteFromPage(ctx, parseInput(incidentRefInput, input), 'incident', (store) => store.incidents);
}

function insertIncident(ctx: ServiceContext, page: Page, spec: IncidentSpec): Promise<Incident> {
  return addToPage(ctx, page, {
    key: spec.key,
    taken: `an incident with key "${spec.key}" already exists on page "${page.slug}"`,
    count: () => ctx.store.incidents.count(page.id),
    max: LIMITS.incidentsPerPage,
    full: `a page keeps at most ${LIMITS.incidentsPerPage} incidents; delete old ones first`,
    exists: (key) => ctx.store.incidents.findByKey(page.id, key),
    async insert() {
      const id = newId('inc');
      await ctx.store.incidents.insert(
        { ...spec, id, pageId: page.id, managedBy: writerOf(ctx) },
        () => newId('upd'),
        ctx.clock.now(),
      );
      return (await ctx.store.incidents.findById(id)) as Incident;
    },
  });
}

async function view(ctx: ServiceContext, page: Page, incident: Incident): Promise<IncidentView> {
  return incidentView(incident, await componentKeysById(ctx, page.id));
}
