// Creating and editing a monitor (/app/monitors/new, /app/monitors/{id}/edit): a form generated from the JSON Schemas
// of GET /api/v1/monitor-types (the type's config and the fields every type shares), with "Test this check", the API's
// errors under their fields, and a new push monitor's token shown once with ways to use it.
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { monitorQuery, monitorTypesQuery, useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import type { MonitorView } from '../api/types';
import { formErrors, noFormErrors } from '../ui/form-errors';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { PLAYER_ALERT_FIELDS } from './monitor-form/player-alerts';
import { CreatedPanel, IdentityFieldset, TypeFieldsets } from './monitor-form/sections';
import { TestResult } from './monitor-form/test-result';
import { type MonitorTypes, useMonitorDraft, useMonitorMutations } from './monitor-form/use-monitor-draft';

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
  const draft = useMonitorDraft(types, monitor);
  const { save, test, created } = useMonitorMutations(draft, monitor);
  const { type, place, configFields, sharedFields, config, problem } = draft;

  if (created) return <CreatedPanel created={created} />;

  const fieldNames = [
    'key',
    'name',
    'type',
    'runOn',
    'relay',
    'dependsOn',
    'locations',
    'quorum',
    'config',
    ...sharedFields.map((f) => f.name),
    ...configFields.map((f) => `config.${f.name}`),
    ...PLAYER_ALERT_FIELDS,
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
          <IdentityFieldset draft={draft} types={types} monitor={monitor} errors={errors} />

          <TypeFieldsets draft={draft} types={types} editing={editing} errors={errors} />

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
