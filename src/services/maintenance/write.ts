// Schedules, changes and deletes maintenance windows, and puts warden.yaml's: one path for the API and the file.
import type { z } from 'zod';
import { ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import {
  ENDS_AFTER_START,
  endsAfterStart,
  type Maintenance,
  type MaintenanceSpec,
  maintenanceSpecChanged,
} from '../../domain/incident.js';
import { LIMITS } from '../../domain/limits.js';
import type { Page } from '../../domain/page.js';
import { OPEN_ENDED, type RecurrenceSlot } from '../../domain/recurrence.js';
import {
  componentKeysById,
  monitorKeysById,
  requireOnPage,
  resolveComponentRefs,
  resolveMonitorKeys,
} from '../components/refs.js';
import { parseInput, type ServiceContext, writerFor, writerOf, writeVerb } from '../context.js';
import { addToPage, deleteFromPage, putOnPage } from '../pages/children.js';
import { requirePage } from '../pages/read.js';
import { changed } from '../pages/write.js';
import type { PutOutcome } from '../put.js';
import { maintenanceCreateInput, maintenanceEntryInput, maintenancePatchInput, maintenanceRefInput } from './schema.js';
import { type MaintenanceView, maintenanceView } from './view.js';

/** Schedules a window on a page (also on a config-managed page). */
export const createMaintenance = writeVerb(
  maintenanceCreateInput,
  async (tx, { slug, ...entry }): Promise<MaintenanceView> => {
    const page = await requirePage(tx, slug);
    return view(
      tx,
      page,
      await insertWindow(tx, page, await specOf(tx, page, { ...entry, key: entry.key ?? null }, undefined)),
    );
  },
);

/** warden.yaml's window, by key: created, or made to match the file. */
export const putMaintenance = writeVerb(
  maintenanceEntryInput,
  async (tx, { slug, ...entry }): Promise<{ window: Maintenance; outcome: PutOutcome }> => {
    const page = await requirePage(tx, slug);
    const current = await tx.store.maintenance.findByKey(page.id, entry.key);
    const spec = await specOf(tx, page, entry, current);
    const { value: window, outcome } = await putOnPage(tx, page, tx.store.maintenance, {
      label: `maintenance "${entry.key}" of page "${slug}"`,
      current,
      create: () => insertWindow(tx, page, spec),
      spec: () => spec,
      changed: maintenanceSpecChanged,
    });
    return { window, outcome };
  },
);

export const updateMaintenance = writeVerb(
  maintenancePatchInput,
  async (tx, { slug, id, ...patch }): Promise<MaintenanceView> => {
    const { page, item: current } = await requireOnPage(tx, slug, id, 'maintenance', tx.store.maintenance.findById);
    const writer = writerFor(tx, current, `maintenance "${current.key ?? current.id}" of page "${slug}"`);
    const startsAt = patch.startsAt ?? current.startsAt;
    const endsAt = patch.endsAt ?? current.endsAt;
    if (!endsAfterStart(startsAt, endsAt)) throw new ValidationError([{ path: 'endsAt', message: ENDS_AFTER_START }]);
    const spec: MaintenanceSpec = {
      key: current.key,
      title: patch.title ?? current.title,
      description: patch.description === undefined ? current.description : patch.description,
      startsAt,
      endsAt,
      recurrence: patch.recurrence === undefined ? current.recurrence : patch.recurrence,
      componentIds:
        patch.components === undefined
          ? current.componentIds
          : await resolveComponentRefs(tx, page.id, patch.components),
      monitorIds: patch.monitors === undefined ? current.monitorIds : await resolveMonitorKeys(tx, patch.monitors),
      announce: patch.announce ?? current.announce,
    };
    await tx.store.maintenance.update(current.id, spec, writer, tx.clock.now());
    changed(tx, page);
    return view(tx, page, (await tx.store.maintenance.findById(current.id)) ?? current);
  },
);

export async function deleteMaintenance(
  ctx: ServiceContext,
  input: z.input<typeof maintenanceRefInput>,
): Promise<void> {
  await deleteFromPage(ctx, parseInput(maintenanceRefInput, input), 'maintenance', (store) => store.maintenance);
}

type WindowEntry = Pick<MaintenanceSpec, 'key' | 'title'> & {
  description?: string | undefined;
  startsAt?: number | undefined;
  endsAt?: number | undefined;
  recurrence?: RecurrenceSlot[] | undefined;
  components: string[];
  monitors: string[];
  announce?: boolean | undefined;
};

/**
 * The window to store. A recurring window's series starts now (or when the stored one started, so warden.yaml's
 * window without startsAt stays unchanged) and is open-ended unless given; a one-off window's times are required.
 */
async function specOf(
  ctx: ServiceContext,
  page: Page,
  entry: WindowEntry,
  current: Maintenance | undefined,
): Promise<MaintenanceSpec> {
  const startsAt = entry.startsAt ?? current?.startsAt ?? ctx.clock.now();
  return {
    key: entry.key,
    title: entry.title,
    description: entry.description ?? null,
    startsAt,
    endsAt: entry.endsAt ?? OPEN_ENDED,
    recurrence: entry.recurrence ?? null,
    componentIds: await resolveComponentRefs(ctx, page.id, entry.components),
    monitorIds: await resolveMonitorKeys(ctx, entry.monitors),
    announce: entry.announce ?? true,
  };
}

function insertWindow(ctx: ServiceContext, page: Page, spec: MaintenanceSpec): Promise<Maintenance> {
  return addToPage(ctx, page, {
    key: spec.key,
    taken: `a maintenance window with key "${spec.key}" already exists on page "${page.slug}"`,
    count: () => ctx.store.maintenance.count(page.id),
    max: LIMITS.maintenancePerPage,
    full: `a page has at most ${LIMITS.maintenancePerPage} maintenance windows; delete past ones first`,
    exists: (key) => ctx.store.maintenance.findByKey(page.id, key),
    async insert() {
      const id = newId('mnt');
      await ctx.store.maintenance.insert({ ...spec, id, pageId: page.id, managedBy: writerOf(ctx) }, ctx.clock.now());
      return (await ctx.store.maintenance.findById(id)) as Maintenance;
    },
  });
}

async function view(ctx: ServiceContext, page: Page, window: Maintenance): Promise<MaintenanceView> {
  const [components, monitors] = await Promise.all([componentKeysById(ctx, page.id), monitorKeysById(ctx)]);
  return maintenanceView(window, { components, monitors }, ctx.clock.now());
}
