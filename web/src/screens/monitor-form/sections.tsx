// The fieldsets of the monitor form: what the monitor is (type, name, key), where it runs, its type's settings, and
// its schedule and alerts, its parent; and the panel a new push monitor's token is shown on once.
import { Button, Fieldset, Group, NativeSelect, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { MonitorView } from '../../api/types';
import type { FormErrors } from '../../ui/form-errors';
import { RouterAnchor } from '../../ui/router-link';
import { ScreenHeader } from '../../ui/screen-header';
import { PushTokenPanel } from '../monitor/push-snippets';
import { ChannelPicker } from './channel-picker';
import { DependsOnFieldset } from './depends-on-fieldset';
import { LocationsFieldset } from './locations-fieldset';
import { playerAlertsSchemaOf } from './player-alerts';
import { PlayerAlertsFieldset } from './player-alerts-fieldset';
import { SchemaField } from './schema-field';
import { type FieldValue, type FormField, initialValue, type JsonSchema } from './schema-form';
import type { MonitorDraft, MonitorTypes } from './use-monitor-draft';

const PLACES: Record<string, string> = {
  edge: 'Warden itself (edge)',
  relay: 'A relay in your network',
  push: 'Push: the server sends heartbeats',
};

type Errors = FormErrors<string>;

export function CreatedPanel({ created }: { created: { id: string; name: string; token: string } }) {
  const navigate = useNavigate();
  return (
    <>
      <ScreenHeader title={`${created.name} created`} />
      <Stack maw={760}>
        <PushTokenPanel token={created.token} />
        <Group>
          <Button onClick={() => void navigate({ to: '/monitors/$monitorId', params: { monitorId: created.id } })}>
            Open the monitor
          </Button>
          <RouterAnchor to="/monitors">Back to monitors</RouterAnchor>
        </Group>
      </Stack>
    </>
  );
}

export function IdentityFieldset({
  draft,
  types,
  monitor,
  errors,
}: {
  draft: MonitorDraft;
  types: MonitorTypes;
  monitor: MonitorView | undefined;
  errors: Errors;
}) {
  return (
    <Fieldset legend="Monitor">
      <Stack gap="sm">
        {monitor ? (
          <Text size="sm">
            Type: <strong>{draft.type?.label ?? draft.typeId}</strong> · Key: <code>{monitor.key}</code>
          </Text>
        ) : (
          <NativeSelect
            id="field-type"
            label="Type"
            withAsterisk
            aria-required
            data={[
              { value: '', label: 'Choose a type…' },
              ...types.types.map((t) => ({ value: t.id, label: t.label })),
            ]}
            value={draft.typeId}
            onChange={(e) => draft.chooseType(e.currentTarget.value)}
            error={errors.fields['type']}
          />
        )}
        <TextInput
          id="field-name"
          label="Name"
          withAsterisk
          aria-required
          value={draft.name}
          onChange={(e) => draft.setName(e.currentTarget.value)}
          error={errors.fields['name']}
        />
        {!monitor && (
          <TextInput
            id="field-key"
            label="Key"
            withAsterisk
            aria-required
            description="Names the monitor in warden.yaml, the API and URLs: lowercase letters, digits, - and _. It cannot change later."
            value={draft.monitorKeyValue}
            onChange={(e) => draft.setKey(e.currentTarget.value)}
            error={errors.fields['key']}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

export function PlaceFieldset({ draft, runsOn, errors }: { draft: MonitorDraft; runsOn: string[]; errors: Errors }) {
  return (
    <Fieldset legend="Where it runs">
      <Stack gap="sm">
        <Radio.Group
          id="field-runOn"
          label="Checked from"
          value={draft.place}
          onChange={draft.setRunOn}
          error={errors.fields['runOn']}
        >
          <Stack gap={6} mt={4}>
            {runsOn.map((r) => (
              <Radio key={r} value={r} label={PLACES[r] ?? r} />
            ))}
          </Stack>
        </Radio.Group>
        {draft.place === 'relay' && (
          <NativeSelect
            id="field-relay"
            label="Relay"
            withAsterisk
            aria-required
            data={[
              { value: '', label: 'Choose a relay…' },
              ...(draft.relays.data?.relays ?? []).map((r) => ({ value: r.key, label: r.name })),
            ]}
            value={draft.relay}
            onChange={(e) => draft.setRelay(e.currentTarget.value)}
            error={errors.fields['relay']}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

/** Schema fields with their values, each under the form's name `prefix + name` for its id and its error. */
export function SchemaFields({
  fields,
  values,
  setValues,
  prefix,
  editing,
  errors,
}: {
  fields: readonly FormField[];
  values: Record<string, FieldValue>;
  setValues: (update: (prev: Record<string, FieldValue>) => Record<string, FieldValue>) => void;
  prefix: string;
  editing: boolean;
  errors: Errors;
}) {
  return fields.map((f) => {
    const props = {
      field: f,
      path: `${prefix}${f.name}`,
      value: values[f.name] ?? initialValue(f, undefined),
      onChange: (v: FieldValue) => setValues((prev) => ({ ...prev, [f.name]: v })),
      error: errors.fields[`${prefix}${f.name}`],
    };
    // The monitor's own `notify` names channels: picked from the organization's, not typed as keys.
    return prefix === '' && f.name === 'notify' ? (
      <ChannelPicker key={f.name} {...props} />
    ) : (
      <SchemaField key={f.name} editing={editing} {...props} />
    );
  });
}

export function TypeFieldsets({
  draft,
  types,
  editing,
  errors,
}: {
  draft: MonitorDraft;
  types: MonitorTypes;
  editing: boolean;
  errors: Errors;
}) {
  const { type } = draft;
  if (!type) return null;
  return (
    <>
      {type.runsOn.length > 1 && <PlaceFieldset draft={draft} runsOn={type.runsOn} errors={errors} />}
      <LocationsFieldset draft={draft} errors={errors} />

      <Fieldset legend={`${type.label} settings`}>
        {draft.configFields.length === 0 ? (
          <Text size="sm">Nothing to set for this type.</Text>
        ) : (
          <Stack gap="sm">
            <SchemaFields
              fields={draft.configFields}
              values={draft.config}
              setValues={draft.setConfig}
              prefix="config."
              editing={editing}
              errors={errors}
            />
          </Stack>
        )}
      </Fieldset>

      <Fieldset legend="Schedule and alerts">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <SchemaFields
            fields={draft.sharedFields}
            values={draft.shared}
            setValues={draft.setShared}
            prefix=""
            editing={editing}
            errors={errors}
          />
        </SimpleGrid>
      </Fieldset>

      <DependsOnFieldset draft={draft} errors={errors} />

      {draft.reportsPlayers && (
        <PlayerAlertsFieldset
          values={draft.playerAlerts}
          onChange={draft.setPlayerAlerts}
          schema={playerAlertsSchemaOf(types.fields as JsonSchema)}
          errors={errors}
        />
      )}
    </>
  );
}
