// Ordering a page's components: each move (a button or a drop) is one request (POST …/components/order), shown at once
// and undone when the server refuses it, said to screen readers, and the focus kept on the button that moved a row.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { type ComponentView, componentsChanged, showComponentOrder } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { formErrors } from '../../ui/form-errors';
import { dropGroup, dropItem, groupsOf, moveGroup, moveItem } from './arrangement';

type Dragged = { kind: 'component'; id: string } | { kind: 'group'; group: string | null };
type DropTarget = { before: string } | { group: string | null } | { beforeGroup: string | null };

export const groupLabel = (group: string | null) => group ?? 'No group';

export function useComponentOrder(slug: string, components: ComponentView[]) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [announcement, setAnnouncement] = useState('');
  const [focusAfter, setFocusAfter] = useState<{ key: string; step: -1 | 1; order: string } | null>(null);
  const dragged = useRef<Dragged | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const order = useMutation({
    // One at a time, in the order the moves were made: each sends the whole order as it then was.
    scope: { id: `components-order-${slug}` },
    mutationFn: (next: ComponentView[]) =>
      call(
        api.POST('/api/v1/pages/{slug}/components/order', {
          params: { path: { slug } },
          body: { components: next.map(({ id, group }) => ({ id, group })) },
        }),
      ),
    onMutate: async (next) => ({ restore: await showComponentOrder(queryClient, org, slug, next) }),
    onError: (_error, _next, context) => {
      context?.restore();
      setAnnouncement('The order was not saved.');
    },
    onSettled: () => componentsChanged(queryClient, org, slug),
  });

  // A moved row is put in its new place (React moves its node, which loses the focus): once the list shows the new order,
  // the focus goes back to the button that moved it (or its twin at an edge).
  const shownOrder = components.map((c) => c.id).join(' ');
  useEffect(() => {
    if (!focusAfter || focusAfter.order !== shownOrder) return;
    const buttons = [
      ...(listRef.current?.querySelectorAll<HTMLButtonElement>(`[data-move="${CSS.escape(focusAfter.key)}"]`) ?? []),
    ];
    (
      buttons.find((b) => b.dataset.step === String(focusAfter.step) && !b.disabled) ?? buttons.find((b) => !b.disabled)
    )?.focus();
    setFocusAfter(null);
  }, [focusAfter, shownOrder]);

  const apply = (next: ComponentView[] | null, said: (next: ComponentView[]) => string) => {
    if (!next) return;
    setAnnouncement(said(next));
    order.mutate(next);
  };
  const where = (next: ComponentView[], id: string) => {
    const blocks = groupsOf(next);
    const block = blocks.find((b) => b.items.some((i) => i.id === id));
    const index = block ? block.items.findIndex((i) => i.id === id) : -1;
    return `position ${index + 1} of ${block?.items.length ?? 0} in ${groupLabel(block?.group ?? null)}`;
  };
  const moveComponent = (c: ComponentView, step: -1 | 1) => {
    const next = moveItem(components, c.id, step);
    if (next) setFocusAfter({ key: `component:${c.id}`, step, order: next.map((x) => x.id).join(' ') });
    apply(next, (after) => `${c.name} moved to ${where(after, c.id)}.`);
  };
  const moveWholeGroup = (group: string | null, step: -1 | 1) => {
    const next = moveGroup(components, group, step);
    if (next) setFocusAfter({ key: `group:${group ?? ''}`, step, order: next.map((x) => x.id).join(' ') });
    apply(next, (after) => {
      const blocks = groupsOf(after);
      return `Group ${groupLabel(group)} moved to position ${blocks.findIndex((b) => b.group === group) + 1} of ${blocks.length}.`;
    });
  };

  const onDrop = (target: DropTarget) => (event: DragEvent) => {
    const what = dragged.current;
    if (!what) return;
    event.preventDefault();
    event.stopPropagation();
    dragged.current = null;
    if (what.kind === 'component' && !('beforeGroup' in target)) {
      const name = components.find((c) => c.id === what.id)?.name ?? 'The component';
      apply(dropItem(components, what.id, target), (next) => `${name} moved to ${where(next, what.id)}.`);
    } else if (what.kind === 'group' && 'beforeGroup' in target) {
      apply(dropGroup(components, what.group, target.beforeGroup), () => `Group ${groupLabel(what.group)} moved.`);
    }
  };
  const allowDrop = (event: DragEvent) => {
    if (dragged.current) event.preventDefault();
  };
  /** Starts dragging a component or a group: what the drop handlers then place. */
  const startDrag = (what: Dragged, event: DragEvent) => {
    dragged.current = what;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', what.kind === 'component' ? what.id : (what.group ?? ''));
  };

  const error = order.error ? formErrors(order.error, []).message : null;
  return { announcement, listRef, error, moveComponent, moveWholeGroup, onDrop, allowDrop, startDrag };
}

export type ComponentOrder = ReturnType<typeof useComponentOrder>;
