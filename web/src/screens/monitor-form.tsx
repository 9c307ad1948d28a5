// Creating and editing a monitor (/app/monitors/new, /app/monitors/{id}/edit): a form generated from the JSON Schemas
// of GET /api/v1/monitor-types (the type's config and the fields every type shares), with "Test this check", the API's
// errors under their fields, and a new push monitor's token shown once with ways to use it.
import { Alert, Button, Fieldset, Group, NativeSelect, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { api, call } from '../api/client';
import { monitorQuery, monitorsChanged, monitorTypesQuery, useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import { relaysQuery } from '../api/relays';
import type { components } from '../api/schema';
import type { MonitorView } from '../api/types';
import { formErrors, noFormErrors } from '../ui/form-errors';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { PushTokenPanel } from './monitor/push-snippets';
import { SchemaField } from './monitor-form/schema-field';
import {
  configOf,
  type FieldValue,
  type FormField,
  fieldsOf,
  initialValue,
  type JsonSchema,
} from './monitor-form/schema-form';
import { TestResult } from './monitor-form/test-result';

type MonitorTypes = components['schemas']['MonitorTypes'];
type CreateBody = components['schemas']['MonitorCreate'];
type PatchBody = components['schemas']['MonitorPatch'];

/** The shared fields the generic part of the form shows (key, name, type, runOn and relay have their own inputs; pausing is on the monitor's screen). */
const SHARED = ['intervalSec', 'timeoutMs', 'retries', 'degradedLatencyMs', 'tags', 'notify'];
/** Meaningless for push monitors, which are not probed. */
const PROBE_ONLY = ['intervalSec', 'timeoutMs', 'retries'];
const PLACES: Record<string, string> = {
  edge: 'Warden itself (edge)',
  relay: 'A relay in your network',
  push: 'Push: the server sends heartbeats',
};

export default function MonitorFormScreen() {
  const { monitorId } = useParams({ strict: false }) as { monitorId?: string };
  const types = useQuery(monitorTypesQuery);
  const monitor = useQuery({
    ...monitorQuery(useOrganizationKey(), monitorId ?? ''),
    enabled: monitorId !== undefined,
  });
  const canEdit = useCanEditMonitors();
  const title = monitorId ? `Edit ${monitor.data?.name ?? 'monitor'}` : 'New monitor';
  const failed = types.error ?? monitor.error;
  // The form needs both: the types, and (editing) the monitor.
  const loaded = types.data && (!monitorId || monitor.data) ? { types: types.data, monitor: monitor.data } : undefined;
  return (
    <>
      {failed && <ScreenHeader title={title} />}
      <QueryState
        query={{
          data: loaded,
          error: failed,
          isPending: !loaded,
          refetch: () => (types.error ? types.refetch() : monitor.refetch()),
        }}
        loading="Loading the form"
        failed="Could not load the form"
      >
        {({ types, monitor }) =>
          monitor?.managedBy === 'config' || !canEdit ? (
            <>
              <ScreenHeader title={title}>{monitor && <ManagedBadge managedBy={monitor.managedBy} />}</ScreenHeader>
              <Alert color="gray" variant="light" title="Read-only">
                {monitor?.managedBy === 'config'
                  ? `warden.yaml manages this monitor (key "${monitor.key}"): change it in the file.`
                  : 'Your role in this organization can view monitors but not change them.'}
              </Alert>
            </>
          ) : (
            <MonitorForm key={monitorId ?? 'new'} types={types} monitor={monitor} title={title} />
          )
        }
      </QueryState>
    </>
  );
}

function MonitorForm({
  types,
  monitor,
  title,
}: {
  types: MonitorTypes;
  monitor: MonitorView | undefined;
  title: string;
}) {
  const editing = monitor !== undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [typeId, setTypeId] = useState<string>(monitor?.type ?? '');
  const type = types.types.find((t) => t.id === typeId);
  const configFields = useMemo(() => (type ? fieldsOf(type.config as JsonSchema, type.secrets) : []), [type]);
  const sharedFields = useMemo(
    () =>
      fieldsOf(types.fields as JsonSchema).filter(
        (f) => SHARED.includes(f.name) && (type?.probed !== false || !PROBE_ONLY.includes(f.name)),
      ),
    [types.fields, type],
  );
  const [name, setName] = useState(monitor?.name ?? '');
  const [key, setKey] = useState<string | null>(null);
  const [runOn, setRunOn] = useState<string>(monitor?.runOn ?? '');
  const [relay, setRelay] = useState(monitor?.relayKey ?? '');
  const [config, setConfig] = useState<Record<string, FieldValue>>(() => valuesOf(configFields, monitor?.config));
  const [shared, setShared] = useState<Record<string, FieldValue>>(() =>
    valuesOf(sharedFields, monitor as Record<string, unknown> | undefined),
  );
  const [problem, setProblem] = useState<unknown>(null);
  const [created, setCreated] = useState<{ id: string; name: string; token: string } | null>(null);

  const place = runOn || type?.runsOn[0] || 'edge';
  const monitorKeyValue = monitor?.key ?? key ?? keyFrom(name);
  const relays = useQuery({ ...relaysQuery(org), staleTime: 60_000, enabled: type?.runsOn.includes('relay') ?? false });

  const chooseType = (id: string) => {
    const next = types.types.find((t) => t.id === id);
    setTypeId(id);
    setRunOn('');
    setConfig(next ? valuesOf(fieldsOf(next.config as JsonSchema, next.secrets), undefined) : {});
    setProblem(null);
  };

  /** The form as a create body: what "Create" and "Test this check" send (a test of a stored monitor uses its key and type). */
  const createBody = (): CreateBody => {
    const body: Record<string, unknown> = {
      key: monitorKeyValue,
      name: name.trim(),
      type: typeId,
      runOn: place,
      config: configOf(configFields, config, false),
    };
    if (place === 'relay' && relay) body['relay'] = relay;
    Object.assign(body, configOf(sharedFields, shared, false));
    return body as CreateBody;
  };
  const patchBody = (): PatchBody => ({
    name: name.trim(),
    runOn: place as PatchBody['runOn'],
    relay: place === 'relay' ? relay || undefined : null,
    config: configOf(configFields, config, true),
    ...configOf(sharedFields, shared, true),
  });

  const save = useMutation({
    mutationFn: async () => {
      if (monitor)
        return {
          monitor: await call(
            api.PATCH('/api/v1/monitors/{id}', { params: { path: { id: monitor.id } }, body: patchBody() }),
          ),
          pushToken: null,
        };
      const answer = await call(api.POST('/api/v1/monitors', { body: createBody() }));
      return { monitor: answer, pushToken: answer.pushToken };
    },
    onMutate: () => setProblem(null),
    onError: setProblem,
    onSuccess: async ({ monitor: saved, pushToken }) => {
      await monitorsChanged(queryClient, org);
      if (pushToken) setCreated({ id: saved.id, name: saved.name, token: pushToken });
      else void navigate({ to: '/monitors/$monitorId', params: { monitorId: saved.id } });
    },
  });
  const test = useMutation({
    mutationFn: () => call(api.POST('/api/v1/monitors/test', { body: createBody() })),
    onMutate: () => setProblem(null),
    onError: setProblem,
  });

  if (created)
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

  const fieldNames = [
    'key',
    'name',
    'type',
    'runOn',
    'relay',
    'config',
    ...sharedFields.map((f) => f.name),
    ...configFields.map((f) => `config.${f.name}`),
  ];
  const errors = problem ? formErrors(problem, fieldNames) : noFormErrors<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const testable = type?.probed === true && place === 'edge';
  const redactedSecrets = editing && configFields.some((f) => f.secret && config[f.name] === '[redacted]');

  return (
    <>
      <ScreenHeader title={title} />
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack maw={760} gap="md">
          <Fieldset legend="Monitor">
            <Stack gap="sm">
              {editing ? (
                <Text size="sm">
                  Type: <strong>{type?.label ?? typeId}</strong> · Key: <code>{monitor.key}</code>
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
                  value={typeId}
                  onChange={(e) => chooseType(e.currentTarget.value)}
                  error={errors.fields['type']}
                />
              )}
              <TextInput
                id="field-name"
                label="Name"
                withAsterisk
                aria-required
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={errors.fields['name']}
              />
              {!editing && (
                <TextInput
                  id="field-key"
                  label="Key"
                  withAsterisk
                  aria-required
                  description="Names the monitor in warden.yaml, the API and URLs: lowercase letters, digits, - and _. It cannot change later."
                  value={monitorKeyValue}
                  onChange={(e) => setKey(e.currentTarget.value)}
                  error={errors.fields['key']}
                />
              )}
            </Stack>
          </Fieldset>

          {type && (
            <>
              {type.runsOn.length > 1 && (
                <Fieldset legend="Where it runs">
                  <Stack gap="sm">
                    <Radio.Group
                      id="field-runOn"
                      label="Checked from"
                      value={place}
                      onChange={setRunOn}
                      error={errors.fields['runOn']}
                    >
                      <Stack gap={6} mt={4}>
                        {type.runsOn.map((r) => (
                          <Radio key={r} value={r} label={PLACES[r] ?? r} />
                        ))}
                      </Stack>
                    </Radio.Group>
                    {place === 'relay' && (
                      <NativeSelect
                        id="field-relay"
                        label="Relay"
                        withAsterisk
                        aria-required
                        data={[
                          { value: '', label: 'Choose a relay…' },
                          ...(relays.data?.relays ?? []).map((r) => ({ value: r.key, label: r.name })),
                        ]}
                        value={relay}
                        onChange={(e) => setRelay(e.currentTarget.value)}
                        error={errors.fields['relay']}
                      />
                    )}
                  </Stack>
                </Fieldset>
              )}

              <Fieldset legend={`${type.label} settings`}>
                {configFields.length === 0 ? (
                  <Text size="sm">Nothing to set for this type.</Text>
                ) : (
                  <Stack gap="sm">
                    {configFields.map((f) => (
                      <SchemaField
                        key={f.name}
                        field={f}
                        path={`config.${f.name}`}
                        editing={editing}
                        value={config[f.name] ?? initialValue(f, undefined)}
                        onChange={(v) => setConfig((prev) => ({ ...prev, [f.name]: v }))}
                        error={errors.fields[`config.${f.name}`]}
                      />
                    ))}
                  </Stack>
                )}
              </Fieldset>

              <Fieldset legend="Schedule and alerts">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  {sharedFields.map((f) => (
                    <SchemaField
                      key={f.name}
                      field={f}
                      path={f.name}
                      editing={editing}
                      value={shared[f.name] ?? initialValue(f, undefined)}
                      onChange={(v) => setShared((prev) => ({ ...prev, [f.name]: v }))}
                      error={errors.fields[f.name]}
                    />
                  ))}
                </SimpleGrid>
              </Fieldset>
            </>
          )}

          {errors.message && (
            <Alert
              color="red"
              variant="light"
              role="alert"
              title={save.isError ? 'Could not save the monitor' : 'Could not test the check'}
            >
              {errors.message}
            </Alert>
          )}
          <TestResult result={test.data} pending={test.isPending} redactedSecrets={redactedSecrets} />
          <Group gap="sm">
            <Button type="submit" loading={save.isPending} disabled={!type}>
              {editing ? 'Save changes' : 'Create monitor'}
            </Button>
            {testable && (
              <Button variant="default" onClick={() => test.mutate()} loading={test.isPending}>
                Test this check
              </Button>
            )}
            {monitor ? (
              <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: monitor.id }}>
                Cancel
              </RouterAnchor>
            ) : (
              <RouterAnchor to="/monitors">Cancel</RouterAnchor>
            )}
          </Group>
        </Stack>
      </form>
    </>
  );
}

function valuesOf(
  fields: readonly FormField[],
  stored: Record<string, unknown> | undefined,
): Record<string, FieldValue> {
  return Object.fromEntries(fields.map((f) => [f.name, initialValue(f, stored?.[f.name] ?? undefined)]));
}

/** A key proposed from the name: "Lobby server #2" → "lobby-server-2". */
function keyFrom(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}
