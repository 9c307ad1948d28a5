// A page's components in their groups, as the public page shows them, ordered by drag and drop or by keyboard (each
// component and group has move up / move down buttons); every move is one request (POST …/components/order), shown at
// once and undone when the server refuses it.
import { Alert, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ComponentView } from '../../api/components';
import { groupsOf } from './arrangement';
import { groupLabel, useComponentOrder } from './component-order';
import { ComponentRow, MoveButtons } from './component-row';

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
  const ordering = useComponentOrder(slug, components);
  const { announcement, listRef, error, moveWholeGroup, onDrop, allowDrop } = ordering;
  const blocks = groupsOf(components);
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
              onDragStart={(e) => ordering.startDrag({ kind: 'group', group: block.group }, e)}
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
              {block.items.map((c) => (
                <ComponentRow
                  key={c.id}
                  slug={slug}
                  component={c}
                  components={components}
                  mayEdit={mayEdit}
                  onEdit={onEdit}
                  ordering={ordering}
                />
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </div>
  );
}
