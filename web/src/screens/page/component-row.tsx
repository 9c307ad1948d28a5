// One component of a page's list: its name, key and monitor, a drag handle, and (for an editor) its move buttons, Edit
// and Remove; config-managed components are read-only.
import { ActionIcon, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client';
import { type ComponentView, componentsChanged } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { ManagedBadge } from '../../ui/managed-badge';
import type { ComponentOrder } from './component-order';

export function ComponentRow({
  slug,
  component: c,
  components,
  mayEdit,
  onEdit,
  ordering,
}: {
  slug: string;
  component: ComponentView;
  components: ComponentView[];
  mayEdit: boolean;
  onEdit: (c: ComponentView) => void;
  ordering: ComponentOrder;
}) {
  const managed = c.managedBy === 'config';
  const flatIndex = components.findIndex((x) => x.id === c.id);
  return (
    <li
      draggable={mayEdit && !managed}
      onDragStart={(e) => {
        ordering.startDrag({ kind: 'component', id: c.id }, e);
        e.stopPropagation();
      }}
      onDragOver={ordering.allowDrop}
      onDrop={ordering.onDrop({ before: c.id })}
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
                  onMove={(step) => ordering.moveComponent(c, step)}
                />
                <Button size="xs" variant="default" onClick={() => onEdit(c)} aria-label={`Edit ${c.name}`}>
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
}

export function MoveButtons({
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
