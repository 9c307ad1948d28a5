// What can be done to a monitor from its screen: pause or resume, check now (with the result), edit, delete (after a
// confirmation), and for push monitors a new token (shown once). warden.yaml's monitors can only be checked.
import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createLink, useNavigate } from '@tanstack/react-router';
import { type ComponentPropsWithRef, useState } from 'react';
import { api, call } from '../../api/client';
import { monitorDeleted, monitorsChanged } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import type { MonitorView } from '../../api/types';
import { ErrorState } from '../../ui/states';
import { probeRunTitle, READABLE_TITLE } from '../monitor-form/test-result';
import { PushTokenPanel } from './push-snippets';

/** A button that is a link: opens in a new tab, and the router navigates without a reload. */
const LinkButton = createLink((props: ButtonProps & Omit<ComponentPropsWithRef<'a'>, 'color' | 'style'>) => (
  <Button component="a" {...props} />
));

export function MonitorActions({ monitor, canEdit }: { monitor: MonitorView; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<'delete' | 'token' | null>(null);
  const id = monitor.id;
  const refresh = () => monitorsChanged(queryClient, org);
  const toggle = useMutation({
    mutationFn: () =>
      call(api.PATCH('/api/v1/monitors/{id}', { params: { path: { id } }, body: { enabled: !monitor.enabled } })),
    onSuccess: refresh,
  });
  const check = useMutation({
    mutationFn: () => call(api.POST('/api/v1/monitors/{id}/check', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v1/monitors/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await monitorDeleted(queryClient, org, id);
      void navigate({ to: '/monitors' });
    },
  });
  const token = useMutation({
    mutationFn: () => call(api.POST('/api/v1/monitors/{id}/push-token', { params: { path: { id } } })),
    onSuccess: async () => {
      setConfirm(null);
      await refresh();
    },
  });

  const managed = monitor.managedBy === 'config';
  const writable = canEdit && !managed;
  // Only Warden's own runner can check now; a relay's monitor is checked by its relay, a push monitor by its sender.
  const checkable = canEdit && monitor.runOn === 'edge' && monitor.enabled;
  const failure = toggle.error ?? check.error ?? token.error;

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap">
        {checkable && (
          <Button variant="default" loading={check.isPending} onClick={() => check.mutate()}>
            Check now
          </Button>
        )}
        {writable && (
          <>
            <Button variant="default" loading={toggle.isPending} onClick={() => toggle.mutate()}>
              {monitor.enabled ? 'Pause' : 'Resume'}
            </Button>
            <LinkButton variant="default" to="/monitors/$monitorId/edit" params={{ monitorId: id }}>
              Edit
            </LinkButton>
            {monitor.runOn === 'push' && (
              <Button variant="default" onClick={() => setConfirm('token')}>
                New push token
              </Button>
            )}
            <Button color="red" variant="light" onClick={() => setConfirm('delete')}>
              Delete
            </Button>
          </>
        )}
      </Group>
      {managed && (
        <Text size="sm">
          warden.yaml manages this monitor (key <code>{monitor.key}</code>): change, pause or delete it in the file.
        </Text>
      )}
      <div role="status" aria-live="polite">
        {check.isPending && <Text size="sm">Checking…</Text>}
        {check.data && (
          <Alert
            color={!check.data.ok ? 'red' : check.data.degraded ? 'yellow' : 'green'}
            variant="light"
            title={`Check now: ${probeRunTitle(check.data)}`}
            styles={READABLE_TITLE}
          >
            <Text size="sm">
              {check.data.ok ? (check.data.message ?? 'No message.') : (check.data.error ?? 'The check failed.')}
            </Text>
          </Alert>
        )}
      </div>
      {failure && <ErrorState error={failure} title="That did not work" />}
      {token.data?.pushToken && <PushTokenPanel token={token.data.pushToken} />}

      <Modal opened={confirm === 'delete'} onClose={() => setConfirm(null)} title={`Delete ${monitor.name}?`} centered>
        <Stack gap="sm">
          <Text size="sm">
            The monitor, its checks and its state history are deleted; status page components showing it show nothing.
          </Text>
          {remove.error && <ErrorState error={remove.error} title="Could not delete the monitor" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Delete monitor
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={confirm === 'token'} onClose={() => setConfirm(null)} title="Issue a new push token?" centered>
        <Stack gap="sm">
          <Text size="sm">The current token stops working at once: whatever sends heartbeats needs the new one.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button loading={token.isPending} onClick={() => token.mutate()}>
              Issue a new token
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
