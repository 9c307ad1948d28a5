// A page's components in their groups, as the public page shows them, ordered by drag and drop or by keyboard (each
// component and group has move up / move down buttons); every move is one request (POST …/components/order), shown at
// once and undone when the server refuses it.
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { type ComponentView, componentsChanged, showComponentOrder } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { formErrors } from '../../ui/form-errors';
import { ManagedBadge } from '../../ui/managed-badge';
import { dropGroup, dropItem, groupsOf, moveGroup, moveItem } from './arrangement';

type Dragged = { kind: 'component'; id: string } | { kind: 'group'; group: string | null };

export function ComponentList({
  slug,
  components,
  mayEdit,
  onEdit,
}: {
  slug: string;
  components: ComponentView[];
  mayEdit: boolean;
  onEdit: (c: ComponentView) => void;
}) {
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

  const onDrop =
    (target: { before: string } | { group: string | null } | { beforeGroup: string | null }) => (event: DragEvent) => {
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

  const blocks = groupsOf(components);
  const error = order.error ? formErrors(order.error, []).message : null;
  if (components.length === 0) return <Text c="dimmed">No components yet: add the first below.</Text>;
  return (
    <div ref={listRef}>
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
      {error && (
        <Alert color="red" role="alert" title="The order was not saved" mb="sm">
          {error}
        </Alert>
      )}
      {mayEdit && (
        <Text size="sm" c="dimmed" mb="xs">
          Drag components and groups to order them, or use their move buttons. Moving past the first or last of a group
          moves a component into the next group.
        </Text>
      )}
      <Stack gap="sm">
        {blocks.map((block, b) => (
          <Paper
            key={block.group ?? '\u0000'}
            withBorder
            p="xs"
            radius="md"
            onDragOver={allowDrop}
            onDrop={onDrop({ group: block.group })}
          >
            <Group
              justify="space-between"
              wrap="nowrap"
              mb={4}
              draggable={mayEdit}
              onDragStart={(e) => {
                dragged.current = { kind: 'group', group: block.group };
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', block.group ?? '');
              }}
              onDragOver={allowDrop}
              onDrop={onDrop({ beforeGroup: block.group })}
            >
              <Title order={3} size="h5">
                {groupLabel(block.group)}
              </Title>
              {mayEdit && blocks.length > 1 && (
                <MoveButtons
                  label={`group ${groupLabel(block.group)}`}
                  focusKey={`group:${block.group ?? ''}`}
                  first={b === 0}
                  last={b === blocks.length - 1}
                  onMove={(step) => moveWholeGroup(block.group, step)}
                />
              )}
            </Group>
            <Stack
              component="ol"
              gap={4}
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-label={`Components in ${groupLabel(block.group)}`}
            >
              {block.items.map((c) => {
                const managed = c.managedBy === 'config';
                const flatIndex = components.findIndex((x) => x.id === c.id);
                return (
                  <li
                    key={c.id}
                    draggable={mayEdit && !managed}
                    onDragStart={(e) => {
                      dragged.current = { kind: 'component', id: c.id };
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', c.id);
                      e.stopPropagation();
                    }}
                    onDragOver={allowDrop}
                    onDrop={onDrop({ before: c.id })}
                    className="warden-component-row"
                  >
                    <Group justify="space-between" wrap="wrap" gap="xs" py={4}>
                      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                        {mayEdit && !managed && <DragHandle />}
                        <Stack gap={0} style={{ minWidth: 0 }}>
                          <Group gap={6} wrap="nowrap">
                            <Text fw={500} truncate>
                              {c.name}
                            </Text>
                            <ManagedBadge managedBy={c.managedBy} />
                          </Group>
                          <Text size="xs" c="dimmed">
                            key <Code>{c.key}</Code>
                            {c.monitorKey ? (
                              <>
                                {' · monitor '}
                                <Code>{c.monitorKey}</Code>
                              </>
                            ) : (
                              ' · no monitor'
                            )}
                          </Text>
                        </Stack>
                      </Group>
                      {mayEdit && (
                        <Group gap={4} wrap="nowrap">
                          {managed ? (
                            <Badge variant="outline" color="gray" tt="none" size="sm">
                              Read-only
                            </Badge>
                          ) : (
                            <>
                              <MoveButtons
                                label={c.name}
                                focusKey={`component:${c.id}`}
                                first={flatIndex === 0}
                                last={flatIndex === components.length - 1}
                                onMove={(step) => moveComponent(c, step)}
                              />
                              <Button
                                size="xs"
                                variant="default"
                                onClick={() => onEdit(c)}
                                aria-label={`Edit ${c.name}`}
                              >
                                Edit
                              </Button>
                              <RemoveComponent slug={slug} component={c} />
                            </>
                          )}
                        </Group>
                      )}
                    </Group>
                  </li>
                );
              })}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </div>
  );
}

export const groupLabel = (group: string | null) => group ?? 'No group';

function MoveButtons({
  label,
  focusKey,
  first,
  last,
  onMove,
}: {
  label: string;
  focusKey: string;
  first: boolean;
  last: boolean;
  onMove: (step: -1 | 1) => void;
}) {
  const button = (step: -1 | 1, disabled: boolean, icon: ReactNode) => (
    <ActionIcon
      variant="default"
      size="md"
      aria-label={`Move ${label} ${step === -1 ? 'up' : 'down'}`}
      disabled={disabled}
      data-move={focusKey}
      data-step={step}
      onClick={() => onMove(step)}
    >
      {icon}
    </ActionIcon>
  );
  return (
    <Group gap={4} wrap="nowrap">
      {button(-1, first, <Arrow up />)}
      {button(1, last, <Arrow />)}
    </Group>
  );
}

function RemoveComponent({ slug, component }: { slug: string; component: ComponentView }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  return (
    <ConfirmButton
      aria-label={`Remove ${component.name}`}
      title={`Remove ${component.name}?`}
      message="It leaves the page, and the incidents and maintenance windows that name it."
      confirmLabel="Remove component"
      onConfirm={async () => {
        await call(
          api.DELETE('/api/v1/pages/{slug}/components/{id}', { params: { path: { slug, id: component.id } } }),
        );
        await componentsChanged(queryClient, org, slug);
      }}
    >
      Remove
    </ConfirmButton>
  );
}

function Arrow({ up = false }: { up?: boolean }) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      aria-hidden="true"
      focusable="false"
    >
      <path d={up ? 'M12 19V5M5 12l7-7 7 7' : 'M12 5v14M5 12l7 7 7-7'} />
    </svg>
  );
}

function DragHandle() {
  return (
    <svg
      width="12"
      height="18"
      viewBox="0 0 12 18"
      aria-hidden="true"
      focusable="false"
      style={{ cursor: 'grab', flex: 'none' }}
    >
      {[3, 9, 15].flatMap((y) => [
        <circle key={`a${y}`} cx="3" cy={y} r="1.5" fill="currentColor" />,
        <circle key={`b${y}`} cx="9" cy={y} r="1.5" fill="currentColor" />,
      ])}
    </svg>
  );
}
