// Creating or changing a notification channel: its type (when new), key, name and switch, then the type's config and
// the rules, both generated from the JSON Schemas of GET /api/v1/notification-channel-types; the API's refusals inline.
import { Alert, Button, Code, Divider, Group, Select, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import type { components } from '../../api/schema';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { organizationKey } from '../setup';
import { SchemaFields } from './schema-fields';
import {
  allFields,
  type FieldValue,
  type FormValues,
  fieldsOf,
  initialValues,
  type JsonSchema,
  toJson,
} from './schema-form-model';

export type Channel = components['schemas']['NotificationChannel'];
export type ChannelTypes = components['schemas']['NotificationChannelTypes'];
type ChannelType = Channel['type'];

export function ChannelForm({
  types,
  channel,
  onSaved,
  onCancel,
}: {
  types: ChannelTypes;
  channel?: Channel;
  onSaved: (channel: Channel) => void;
  onCancel: () => void;
}) {
  const editing = channel !== undefined;
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'discord');
  const definition = types.types.find((t) => t.id === type);
  const configFields = useMemo(
    () => fieldsOf((definition?.config ?? {}) as JsonSchema, 'config', definition?.secrets ?? []),
    [definition],
  );
  const ruleFields = useMemo(() => fieldsOf(types.rules as JsonSchema, 'rules'), [types.rules]);
  const [name, setName] = useState(channel?.name ?? '');
  const [key, setKey] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(channel?.enabled ?? true);
  const [values, setValues] = useState<FormValues>(() => ({
    ...initialValues(configFields, channel?.config),
    ...initialValues(ruleFields, channel ? (channel.rules as Record<string, unknown>) : undefined),
  }));
  const [errors, setErrors] = useState<FormErrors<string>>(noFormErrors);
  const shownKey = channel?.key ?? key ?? organizationKey(name);
  const fieldNames = useMemo(
    () => [
      'key',
      'name',
      'type',
      'enabled',
      'config',
      'rules',
      ...allFields([...configFields, ...ruleFields]).map((f) => f.name),
    ],
    [configFields, ruleFields],
  );

  const save = useMutation({
    mutationFn: () => {
      const rules = toJson(ruleFields, values);
      if (channel)
        return call(
          api.PATCH('/api/v1/notification-channels/{key}', {
            params: { path: { key: channel.key } },
            body: { name: name.trim(), enabled, config: toJson(configFields, values, channel.config), rules },
          }),
        );
      // The body's shape depends on `type`, which the generated union checks per variant: built from the schema at run time.
      const body = {
        key: shownKey,
        name: name.trim(),
        type,
        enabled,
        config: toJson(configFields, values),
        rules,
      } as components['schemas']['NotificationChannelCreate'];
      return call(api.POST('/api/v1/notification-channels', { body }));
    },
    onSuccess: onSaved,
    onError: (error) => setErrors(formErrors(error, fieldNames)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    save.mutate();
  };
  const change = (field: string, value: FieldValue) => setValues((v) => ({ ...v, [field]: value }));
  const chooseType = (next: string | null) => {
    if (!next || next === type) return;
    const nextDefinition = types.types.find((t) => t.id === next);
    const nextFields = fieldsOf((nextDefinition?.config ?? {}) as JsonSchema, 'config', nextDefinition?.secrets ?? []);
    // Another type has other config fields: start them afresh, keep the rules.
    setValues((v) => ({
      ...Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('config.'))),
      ...initialValues(nextFields, undefined),
    }));
    setType(next as ChannelType);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {errors.message && (
          <Alert color="red" role="alert" title="Not saved">
            {errors.message}
          </Alert>
        )}
        {editing ? (
          <TextInput
            label="Type"
            value={definition?.label ?? type}
            readOnly
            description="The type and key of a channel stay."
          />
        ) : (
          <Select
            label="Type"
            required
            allowDeselect={false}
            data={types.types.map((t) => ({ value: t.id, label: t.label }))}
            value={type}
            onChange={chooseType}
            error={errors.fields.type}
          />
        )}
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.fields.name}
        />
        {editing ? (
          <TextInput
            label="Key"
            value={shownKey}
            readOnly
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        ) : (
          <TextInput
            label="Key"
            description={
              <>
                Names it in warden.yaml, in a monitor’s <Code>notify</Code> and in{' '}
                <Code>warden notifications test KEY</Code>; it cannot change later.
              </>
            }
            required
            value={shownKey}
            onChange={(e) => setKey(e.currentTarget.value)}
            error={errors.fields.key}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        <Switch
          label="Enabled"
          description="A disabled channel gets nothing but tests."
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Divider my="xs" />
        <Title order={3} size="h5">
          {definition?.label ?? type} settings
        </Title>
        {errors.fields.config && (
          <Alert color="red" role="alert">
            {errors.fields.config}
          </Alert>
        )}
        <SchemaFields
          fields={configFields}
          values={values}
          onChange={change}
          errors={errors.fields}
          editing={editing}
        />
        <Divider my="xs" />
        <Title order={3} size="h5">
          What it gets and when
        </Title>
        <SchemaFields fields={ruleFields} values={values} onChange={change} errors={errors.fields} editing={editing} />
        <Group justify="flex-end" gap="xs" mt="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save the channel' : 'Create the channel'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
