// Puts a page's components in a new order (and groups) in one write: the dashboard's drag and drop, one request.
import { z } from 'zod';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { LIMITS } from '../../domain/limits.js';
import { type Component, componentFields } from '../../domain/page.js';
import { parseInput, type ServiceContext, withTransaction, writerOf } from '../context.js';
import { requirePage } from '../pages/read.js';
import { changed } from '../pages/write.js';
import { monitorKeysById } from './refs.js';
import { type ComponentView, componentView } from './view.js';

/** Largest order a component may have (the field's own bound). */
const MAX_ORDER = 100_000;

export const componentOrderSchema = z
  .object({
    components: z
      .array(
        z
          .object({
            id: reference().describe('A component of the page.'),
            group: componentFields.group
              .nullable()
              .optional()
              .describe('Its group from now on; null: none; absent: the one it has.'),
          })
          .strict(),
      )
      .max(LIMITS.componentsPerPage)
      .describe('Every component of the page, each once, in the order the page shows them.'),
  })
  .strict();

export const componentOrderInput = componentOrderSchema.extend({ slug: reference() });

/**
 * Numbers the components in the order given (0, 1, 2, … for the API's), changing only those that move or change group.
 * Components warden.yaml manages keep their order and group: the API's are numbered around them, and an order that
 * would move one (or leaves no number between two of them) is a conflict.
 */
export async function orderComponents(
  ctx: ServiceContext,
  input: z.input<typeof componentOrderInput>,
): Promise<ComponentView[]> {
  const { slug, components: wanted } = parseInput(componentOrderInput, input);
  const ordered = await withTransaction(ctx, async (tx) => {
    const page = await requirePage(tx, slug);
    const current = await tx.store.components.list(page.id);
    const byId = new Map(current.map((c) => [c.id, c]));
    const seen = new Set<string>();
    const issues = wanted.flatMap(({ id }, i) => {
      const problem = !byId.has(id) ? `no component "${id}" on this page` : seen.has(id) ? 'listed twice' : null;
      seen.add(id);
      return problem ? [{ path: `components[${i}].id`, message: problem }] : [];
    });
    const missing = current.filter((c) => !seen.has(c.id));
    if (missing.length > 0)
      issues.push({
        path: 'components',
        message: `must list every component of the page; missing ${missing.map((c) => `"${c.key}"`).join(', ')}`,
      });
    if (issues.length > 0) throw new ValidationError(issues);

    const writer = writerOf(tx);
    const placed = placeAll(
      wanted.map(({ id, group }) => ({ component: byId.get(id) as Component, group })),
      writer,
    );
    const now = tx.clock.now();
    let moved = false;
    for (const { component, order, group } of placed) {
      if (component.order === order && component.group === group) continue;
      const { id, key, name, description, monitorId, join, managedBy } = component;
      await tx.store.components.update(id, { key, name, description, group, order, monitorId, join }, managedBy, now);
      moved = true;
    }
    if (moved) changed(tx, page);
    return tx.store.components.list(page.id);
  });
  const monitorKeys = await monitorKeysById(ctx);
  return ordered.map((c) => componentView(c, monitorKeys));
}

/** Each component's new order and group, lowest first, keeping those the writer may not change where they are. */
function placeAll(list: { component: Component; group: string | null | undefined }[], writer: Component['managedBy']) {
  let last = -1;
  return list.map(({ component, group }, i) => {
    const nextGroup = group === undefined ? component.group : group;
    const fixed = component.managedBy === 'config' && writer !== 'config';
    if (!fixed) {
      last += 1;
      if (last > MAX_ORDER)
        throw new ConflictError('no room to number the components: move those warden.yaml manages in the file');
      return { component, order: last, group: nextGroup };
    }
    const label = `component "${component.key}" is managed by warden.yaml`;
    if (nextGroup !== component.group) throw new ConflictError(`${label}: change its group in the file and apply it`);
    if (component.order <= last)
      throw new ConflictError(
        `${label} and keeps its place (order ${component.order}): the order given at position ${i} would move it; change it in the file`,
      );
    last = component.order;
    return { component, order: component.order, group: nextGroup };
  });
}
