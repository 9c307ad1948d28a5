// The Alerts screen (/app/alerts): the organization's open alerts (or the most recent, resolved too) with their
// monitor, state, when they opened, how far their escalation went and who acknowledged them and when, shown to every
// member; editors acknowledge one here, with a note. Below, the escalation policies (policies-section.tsx).
import { Button, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  type AlertsShown,
  type AlertView,
  acknowledgeAlert,
  alertsChanged,
  alertsQuery,
  policiesQuery,
} from '../api/alerts';
import { useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import { formErrors } from '../ui/form-errors';
import { FormMessage } from '../ui/form-message';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { EmptyState } from '../ui/states';
import { AlertTable } from './alerts/alert-table';
import { PoliciesSection } from './alerts/policies-section';

export default function AlertsScreen() {
  const canEdit = useCanEditMonitors();
  const org = useOrganizationKey();
  const [shown, setShown] = useState<AlertsShown>('open');
  // Alerts open, escalate and get acknowledged by others meanwhile: read again every 15 s.
  const alerts = useQuery({ ...alertsQuery(org, shown), refetchInterval: 15_000 });
  const policies = useQuery(policiesQuery(org));
  const [acknowledging, setAcknowledging] = useState<AlertView | null>(null);
  const stepsOf = new Map((policies.data?.escalationPolicies ?? []).map((p) => [p.key, p.steps.length]));
  return (
    <>
      <ScreenHeader title="Alerts" />
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          An alert opens when a monitor goes down (or degraded) and resolves when it is back up. Acknowledging it says
          someone is on it: its reminders and escalation stop, and everyone sees who acknowledged it and when.
        </Text>
        <SegmentedControl
          aria-label="Alerts shown"
          w="fit-content"
          value={shown}
          onChange={(value) => setShown(value as AlertsShown)}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'all', label: 'Recent' },
          ]}
        />
        <QueryState
          query={alerts}
          loading="Loading alerts"
          failed="Could not load the alerts"
          isEmpty={(data) => data.alerts.length === 0}
          empty={
            <EmptyState
              title={shown === 'open' ? 'No open alerts' : 'No alerts yet'}
              description="A monitor going down opens one."
            />
          }
        >
          {(data) => (
            <AlertTable alerts={data.alerts} stepsOf={stepsOf} onAcknowledge={canEdit ? setAcknowledging : undefined} />
          )}
        </QueryState>
        <PoliciesSection canEdit={canEdit} policies={policies} />
      </Stack>
      <Modal
        opened={acknowledging !== null}
        onClose={() => setAcknowledging(null)}
        title={`Acknowledge the alert of ${acknowledging?.monitor.name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {acknowledging && <AcknowledgeForm alert={acknowledging} onDone={() => setAcknowledging(null)} />}
      </Modal>
    </>
  );
}

/** An optional note, and the button that acknowledges; the API's refusal (resolved or acknowledged meanwhile) shown. */
function AcknowledgeForm({ alert, onDone }: { alert: AlertView; onDone: () => void }) {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const acknowledge = useMutation({
    mutationFn: () => acknowledgeAlert(alert.id, note),
    onSettled: () => alertsChanged(queryClient, org),
    onSuccess: onDone,
  });
  const errors = acknowledge.error ? formErrors(acknowledge.error, ['note'] as const) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    acknowledge.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Acknowledge the alert">
      <Stack gap="sm">
        <Text size="sm">Its reminders and escalation stop; everyone sees that you acknowledged it.</Text>
        <TextInput
          label="Note"
          description="Optional: what is being done (at most 500 characters)."
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errors?.fields.note}
        />
        <FormMessage message={errors?.message ?? null} />
        <Button type="submit" loading={acknowledge.isPending} w="fit-content">
          Acknowledge
        </Button>
      </Stack>
    </form>
  );
}
