// Adds, changes and removes the components of a page, and puts warden.yaml's: one path for the API and the file.
import type { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import { type Component, type ComponentSpec, componentSpecChanged, type Page } from '../../domain/page.js';
import {
  parseInput,
  type ServiceContext,
  uniquely,
  withTransaction,
  writerFor,
  writerOf,
  writeVerb,
} from '../context.js';
import { deleteFromPage, putOnPage } from '../pages/children.js';
import { requirePage } from '../pages/read.js';
import { changed } from '../pages/write.js';
import type { PutOutcome } from '../put.js';
import { monitorKeysById, requireOnPage, resolveMonitorKey } from './refs.js';
import { componentCreateInput, componentEntryInput, componentRefInput, componentUpdateInput } from './schema.js';
import { type ComponentView, componentView } from './view.js';

/** Also on a config-managed page: the file leaves components created through the API alone. */
export async function createComponent(
  ctx: ServiceContext,
  input: z.input<typeof componentCreateInput>,
): Promise<ComponentView> {
  const { slug, ...entry } = parseInput(componentCreateInput, input);
  const component = await withTransaction(ctx, async (tx) => {
    const page = await requirePage(tx, slug);
    return insertComponent(tx, page, { ...entry, key: entry.key ?? entry.name });
  });
  return componentView(component, await monitorKeysById(ctx));
}

/** warden.yaml's component, by key (its name when it has none): created, or made to match the file. */
export const putComponent = writeVerb(
  componentEntryInput,
  async (tx, { slug, ...entry }): Promise<{ component: Component; outcome: PutOutcome }> => {
    const page = await requirePage(tx, slug);
    const key = entry.key ?? entry.name;
    const { value: component, outcome } = await putOnPage(tx, page, tx.store.components, {
      label: `component "${key}" of page "${slug}"`,
      current: (await tx.store.components.list(page.id)).find((c) => c.key === key),
      create: () => insertComponent(tx, page, { ...entry, key }),
      spec: () => specOf(tx, { ...entry, key }),
      changed: componentSpecChanged,
    });
    return { component, outcome };
  },
);

export async function updateComponent(
  ctx: ServiceContext,
  input: z.input<typeof componentUpdateInput>,
): Promise<ComponentView> {
  const { slug, id, ...patch } = parseInput(componentUpdateInput, input);
  const component = await withTransaction(ctx, async (tx) => {
    const { page, item: current } = await requireOnPage(tx, slug, id, 'component', tx.store.components.findById);
    const writer = writerFor(tx, current, `component "${current.key}" of page "${slug}"`);
    const monitorId =
      patch.monitor === undefined
        ? current.monitorId
        : patch.monitor === null
          ? null
          : await resolveMonitorKey(tx, patch.monitor);
    const spec: ComponentSpec = {
      key: current.key,
      name: patch.name ?? current.name,
      description: patch.description === undefined ? current.description : patch.description,
      group: patch.group === undefined ? current.group : patch.group,
      order: patch.order ?? current.order,
      monitorId,
      join: patch.join ?? current.join,
    };
    await tx.store.components.update(current.id, spec, writer, tx.clock.now());
    changed(tx, page);
    return (await tx.store.components.findById(current.id)) ?? current;
  });
  return componentView(component, await monitorKeysById(ctx));
}

/** Removes a component from its page (and from the incidents and maintenance naming it). */
export async function deleteComponent(ctx: ServiceContext, input: z.input<typeof componentRefInput>): Promise<void> {
  await deleteFromPage(ctx, parseInput(componentRefInput, input), 'component', (store) => store.components);
}

type ComponentEntry = Omit<z.output<typeof componentCreateInput>, 'slug' | 'key'> & { key: string };

async function specOf(ctx: ServiceContext, entry: ComponentEntry, nextOrder = 0): Promise<ComponentSpec> {
  return {
    key: entry.key,
    name: entry.name,
    description: entry.description ?? null,
    group: entry.group ?? null,
    order: entry.order ?? nextOrder,
    monitorId: entry.monitor === undefined ? null : await resolveMonitorKey(ctx, entry.monitor),
    join: entry.join ?? 'auto',
  };
}

async function insertComponent(ctx: ServiceContext, page: Page, entry: ComponentEntry): Promise<Component> {
  const taken = `a component with key "${entry.key}" already exists on page "${page.slug}"`;
  const component = await uniquely(
    ctx,
    async () => {
      const existing = await ctx.store.components.list(page.id);
      if (existing.length >= LIMITS.componentsPerPage)
        throw new ConflictError(`a page has at most ${LIMITS.componentsPerPage} components`);
      if (existing.some((c) => c.key === entry.key)) throw new ConflictError(taken);
      // New components go last unless told otherwise.
      const spec = await specOf(
        ctx,
        entry,
        existing.reduce((max, c) => Math.max(max, c.order + 1), 0),
      );
      const id = newId('cmp');
      await ctx.store.components.insert({ ...spec, id, pageId: page.id, managedBy: writerOf(ctx) }, ctx.clock.now());
      return (await ctx.store.components.findById(id)) as Component;
    },
    taken,
  );
  changed(ctx, page);
  return component;
}
