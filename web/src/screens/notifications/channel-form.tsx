// Creating or changing a notification channel: its type (when new), key, name and switch, then the type's config and
// the rules, both generated from the JSON Schemas of GET /api/v1/notification-channel-types; the API's refusals inline.
import { Alert, Button, Divider, Group, Stack, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { type Channel, type ChannelTypes, useChannelDraft } from './channel-draft';
import { ChannelIdentityFields } from './channel-identity';
import { NewSecret } from './new-secret';
import { SchemaFields } from './schema-fields';
import { TemplateSection } from './template-section';

export type { Channel, ChannelTypes };

export function ChannelForm({
  types,
  channel,
  onSaved,
  onCancel,
}: {
  types: ChannelTypes;
  channel?: Channel;
  /** With `secret` when Warden generated one for the new channel: to be shown this once. */
  onSaved: (channel: Channel & { secret?: string }) => void;
  onCancel: () => void;
}) {
  const editing = channel !== undefined;
  const draft = useChannelDraft(types, channel);
  const { configFields, ruleFields, values, change } = draft;
  const [errors, setErrors] = useState<FormErrors<string>>(noFormErrors);
  const save = useMutation({
    mutationFn: () =>
      channel
        ? call(
            api.PATCH('/api/v1/notification-channels/{key}', {
              params: { path: { key: channel.key } },
              body: draft.patchBody(channel),
            }),
          )
        : call(api.POST('/api/v1/notification-channels', { body: draft.createBody() })),
    onSuccess: onSaved,
    onError: (error) => setErrors(formErrors(error, draft.fieldNames)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    save.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {errors.message && (
          <Alert color="red" role="alert" title="Not saved">
            {errors.message}
          </Alert>
        )}
        <ChannelIdentityFields draft={draft} types={types} editing={editing} errors={errors} />
        <Divider my="xs" />
        <Title order={3} size="h5">
          {draft.typeLabel} settings
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
        {channel && configFields.some((f) => f.generated) && <NewSecret channel={channel} onIssued={onSaved} />}
        <Divider my="xs" />
        <TemplateSection draft={draft} errors={errors.fields} />
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
