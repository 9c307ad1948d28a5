// The first part of a channel's form: its type (chosen when new, shown after), name, key (proposed from the name when
// new, shown after) and whether it is enabled.
import { Code, Select, Switch, TextInput } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';
import type { ChannelDraft, ChannelTypes } from './channel-draft';

export function ChannelIdentityFields({
  draft,
  types,
  editing,
  errors,
}: {
  draft: ChannelDraft;
  types: ChannelTypes;
  editing: boolean;
  errors: FormErrors<string>;
}) {
  return (
    <>
      {editing ? (
        <TextInput label="Type" value={draft.typeLabel} readOnly description="The type and key of a channel stay." />
      ) : (
        <Select
          label="Type"
          required
          allowDeselect={false}
          data={types.types.map((t) => ({ value: t.id, label: t.label }))}
          value={draft.type}
          onChange={draft.chooseType}
          error={errors.fields.type}
        />
      )}
      <TextInput
        label="Name"
        required
        value={draft.name}
        onChange={(e) => draft.setName(e.currentTarget.value)}
        error={errors.fields.name}
      />
      {editing ? (
        <TextInput
          label="Key"
          value={draft.shownKey}
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
          value={draft.shownKey}
          onChange={(e) => draft.setKey(e.currentTarget.value)}
          error={errors.fields.key}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      )}
      <Switch
        label="Enabled"
        description="A disabled channel gets nothing but tests."
        checked={draft.enabled}
        onChange={(e) => draft.setEnabled(e.currentTarget.checked)}
      />
    </>
  );
}
