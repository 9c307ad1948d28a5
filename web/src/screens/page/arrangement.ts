// How the page editor orders components: in groups, as the public page shows them (a group where its first component
// is), moved one step by keyboard or dropped by the mouse; the result is the list POST …/components/order takes.

export interface Placed {
  id: string;
  group: string | null;
}

export interface GroupBlock<T extends Placed> {
  group: string | null;
  items: T[];
}

/** A blank group is no group, as on the public page. */
const groupName = (group: string | null) => (group === null || group.trim() === '' ? null : group);

/** The components in blocks by group, each block where its first component is. */
export function groupsOf<T extends Placed>(items: readonly T[]): GroupBlock<T>[] {
  const blocks = new Map<string | null, T[]>();
  for (const item of items) {
    const key = groupName(item.group);
    const block = blocks.get(key);
    if (block) block.push(item);
    else blocks.set(key, [item]);
  }
  return [...blocks].map(([group, list]) => ({ group, items: list }));
}

/** The page order of the blocks, each component with the group of its block. */
export function flatten<T extends Placed>(blocks: readonly GroupBlock<T>[]): T[] {
  return blocks.flatMap((b) => b.items.map((item) => (item.group === b.group ? item : { ...item, group: b.group })));
}

/**
 * One step up (-1) or down (1): within its group, or past the group's edge into the neighbouring group (last of the
 * group above, first of the group below). Null when it cannot go further.
 */
export function moveItem<T extends Placed>(items: readonly T[], id: string, step: -1 | 1): T[] | null {
  const blocks = groupsOf(items).map((b) => ({ ...b, items: [...b.items] }));
  const at = blocks.findIndex((b) => b.items.some((i) => i.id === id));
  const block = blocks[at];
  if (!block) return null;
  const index = block.items.findIndex((i) => i.id === id);
  const [item] = block.items.splice(index, 1) as [T];
  // Still inside its group: up from any but the first, down from any but the last (the list is one shorter now).
  if (step === -1 ? index > 0 : index < block.items.length) {
    block.items.splice(index + step, 0, item);
    return flatten(blocks.filter((b) => b.items.length > 0));
  }
  const neighbour = blocks[at + step];
  if (!neighbour) return null;
  if (step === -1) neighbour.items.push(item);
  else neighbour.items.unshift(item);
  return flatten(blocks.filter((b) => b.items.length > 0));
}

/** A whole group one step up or down among the groups; null at the edge. */
export function moveGroup<T extends Placed>(items: readonly T[], group: string | null, step: -1 | 1): T[] | null {
  const blocks = groupsOf(items);
  const at = blocks.findIndex((b) => b.group === group);
  const other = at + step;
  if (at < 0 || other < 0 || other >= blocks.length) return null;
  [blocks[at], blocks[other]] = [blocks[other] as GroupBlock<T>, blocks[at] as GroupBlock<T>];
  return flatten(blocks);
}

/** A component dropped before another (taking its group), or at the end of a group. */
export function dropItem<T extends Placed>(
  items: readonly T[],
  id: string,
  target: { before: string } | { group: string | null },
): T[] {
  const item = items.find((i) => i.id === id);
  if (!item || ('before' in target && target.before === id)) return [...items];
  // The blocks keep their places while the component leaves its own (which goes when it was its last).
  const blocks = groupsOf(items)
    .map((b) => ({ ...b, items: b.items.filter((i) => i.id !== id) }))
    .filter((b) => b.items.length > 0);
  if ('before' in target) {
    const block = blocks.find((b) => b.items.some((i) => i.id === target.before));
    if (!block) return [...items];
    block.items.splice(
      block.items.findIndex((i) => i.id === target.before),
      0,
      item,
    );
  } else {
    const block = blocks.find((b) => b.group === target.group);
    if (block) block.items.push(item);
    else blocks.push({ group: target.group, items: [item] });
  }
  return flatten(blocks);
}

/** A group dropped before another. */
export function dropGroup<T extends Placed>(items: readonly T[], group: string | null, before: string | null): T[] {
  const blocks = groupsOf(items);
  const moving = blocks.find((b) => b.group === group);
  if (!moving || group === before) return [...items];
  const rest = blocks.filter((b) => b !== moving);
  const at = rest.findIndex((b) => b.group === before);
  rest.splice(at < 0 ? rest.length : at, 0, moving);
  return flatten(rest);
}

/** Whether two orders differ (ids or groups). */
export function sameArrangement(a: readonly Placed[], b: readonly Placed[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, i) => item.id === b[i]?.id && groupName(item.group) === groupName(b[i]?.group ?? null))
  );
}
