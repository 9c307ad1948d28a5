// Adds a component to a page or changes one: name, key (when adding), group, description, the monitor it shows and
// its join button.
import { Alert, Autocomplete, Button, Group, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { type ComponentView, componentsChanged } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { formErrors } from '../../ui/form-errors';
import { JoinField, useJoinDraft } from './join-field';
import { MonitorPicker } from './monitor-picker';

const FIELDS = ['name', 'key', 'group', 'description', 'monitor', 'join'] as const;

export function ComponentForm({
  slug,
  component,
  groups,
  onDone,
}: {
  slug: string;
  component?: ComponentView;
  groups: string[];
  onDone: () => void;
}) {
  const { name, setName, key, setKey, group, setGroup, description, setDescription, monitor, setMonitor, join, save } =
    useComponentDraft(slug, component, onDone);
  const errors = save.error ? formErrors(save.error, FIELDS) : null;
  return (
    <form
      aria-label={component ? `Change ${component.name}` : 'Add a component'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors?.fields.name}
            data-autofocus
          />
          {component ? (
            <TextInput
              label="Key"
              value={component.key}
              readOnly
              description="Incidents and maintenance name it by its key; it stays."
            />
          ) : (
            <TextInput
              label="Key"
              description="Optional; the name when empty. It cannot change later."
              value={key}
              onChange={(e) => setKey(e.currentTarget.value)}
              error={errors?.fields.key}
            />
          )}
          <Autocomplete
            label="Group"
            description="Components of a group show together."
            placeholder="No group"
            data={groups}
            value={group}
            onChange={setGroup}
            error={errors?.fields.group}
          />
          <MonitorPicker value={monitor} onChange={setMonitor} error={errors?.fields.monitor} />
        </SimpleGrid>
        <Textarea
          label="Description"
          rows={1}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors?.fields.description}
        />
        <JoinField draft={join} error={errors?.fields.join} />
        {errors?.message && (
          <Alert color="red" role="alert" title={component ? 'Not changed' : 'Not added'}>
            {errors.message}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          {component && (
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            {component ? 'Save component' : 'Add component'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The form's values and their saving: a PATCH of the component, or a POST of a new one (then the form is emptied). */
function useComponentDraft(slug: string, component: ComponentView | undefined, onDone: () => void) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [name, setName] = useState(component?.name ?? '');
  const [key, setKey] = useState('');
  const [group, setGroup] = useState(component?.group ?? '');
  const [description, setDescription] = useState(component?.description ?? '');
  const [monitor, setMonitor] = useState<string | null>(component?.monitorKey ?? null);
  const join = useJoinDraft(component?.join);
  const save = useMutation({
    mutationFn: () => {
      const fields = {
        name: name.trim(),
        group: group.trim() || null,
        description: description.trim() || null,
        monitor,
        join: join.value(),
      };
      if (component)
        return call(
          api.PATCH('/api/v1/pages/{slug}/components/{id}', {
            params: { path: { slug, id: component.id } },
            body: fields,
          }),
        );
      const { group: g, description: d, monitor: m, ...rest } = fields;
      return call(
        api.POST('/api/v1/pages/{slug}/components', {
          params: { path: { slug } },
          body: {
            ...rest,
            ...(key.trim() ? { key: key.trim() } : {}),
            ...(g ? { group: g } : {}),
            ...(d ? { description: d } : {}),
            ...(m ? { monitor: m } : {}),
          },
        }),
      );
    },
    onSuccess: async () => {
      await componentsChanged(queryClient, org, slug);
      if (!component) {
        setName('');
        setKey('');
        setDescription('');
        setMonitor(null);
        join.reset();
      }
      onDone();
    },
  });
  return { name, setName, key, setKey, group, setGroup, description, setDescription, monitor, setMonitor, join, save };
}
