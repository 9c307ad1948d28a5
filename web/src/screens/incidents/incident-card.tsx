// One incident: its state, impact, page, affected components and timeline (newest first), and what an editor may do
// with it: post an update, resolve, change it, delete it. One that warden.yaml declares is read-only, with its key.
import { Button, Code, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import {
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  type IncidentImpact,
  incidentsChanged,
  type OrganizationIncident,
} from '../../api/incidents';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { ManagedBadge } from '../../ui/managed-badge';
import { RouterAnchor } from '../../ui/router-link';
import { Timestamp } from '../../ui/timestamp';
import { TintedBadge } from '../page/tinted-badge';
import { EditIncidentForm, IncidentUpdateForm } from './incident-forms';

const IMPACT_COLORS: Record<IncidentImpact, string> = {
  none: 'gray',
  minor: 'yellow',
  major: 'orange',
  critical: 'red',
};
export const statusLabel = (status: string) => INCIDENT_STATUSES.find((s) => s.value === status)?.label ?? status;
export const impactLabel = (impact: string) => INCIDENT_IMPACTS.find((s) => s.value === impact)?.label ?? impact;

type Dialog = { kind: 'update'; resolve: boolean } | { kind: 'edit' } | null;

export function IncidentCard({
  incident,
  mayEdit,
  showPage,
}: {
  incident: OrganizationIncident;
  mayEdit: boolean;
  showPage: boolean;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const managed = incident.managedBy === 'config';
  const editable = mayEdit && !managed;
  const close = () => setDialog(null);
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={incident.title}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h5">
              {incident.title}
            </Title>
            <ManagedBadge managedBy={incident.managedBy} />
            {managed && incident.key && (
              <Text size="xs" c="dimmed">
                key <Code>{incident.key}</Code>
              </Text>
            )}
          </Group>
          <Group gap={6}>
            <TintedBadge color={incident.status === 'resolved' ? 'green' : 'blue'}>
              {statusLabel(incident.status)}
            </TintedBadge>
            <TintedBadge color={IMPACT_COLORS[incident.impact]}>{impactLabel(incident.impact)} impact</TintedBadge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {showPage && (
            <>
              <RouterAnchor to="/pages/$slug" params={{ slug: incident.page.slug }} size="sm" underline="always">
                {incident.page.title}
              </RouterAnchor>
              {' · '}
            </>
          )}
          Started <Timestamp ms={incident.startedAt} />
          {incident.resolvedAt !== null && (
            <>
              {' · resolved '}
              <Timestamp ms={incident.resolvedAt} />
            </>
          )}
          {incident.components.length > 0 && ` · affects ${incident.components.join(', ')}`}
        </Text>
        <Stack component="ol" gap={6} m={0} pl="md" aria-label={`Timeline of ${incident.title}`}>
          {[...incident.updates].reverse().map((u) => (
            <li key={u.id}>
              <Text size="sm">
                <Text span fw={600} size="sm">
                  {statusLabel(u.status)}
                </Text>{' '}
                <Text span c="dimmed" size="xs">
                  <Timestamp ms={u.at} />
                </Text>
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {u.message}
              </Text>
            </li>
          ))}
        </Stack>
        {editable && <IncidentActions incident={incident} setDialog={setDialog} />}
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={dialog !== null}
        onClose={close}
        title={
          dialog?.kind === 'edit'
            ? `Edit ${incident.title}`
            : dialog?.kind === 'update' && dialog.resolve
              ? `Resolve ${incident.title}`
              : `Update ${incident.title}`
        }
        centered
        size="lg"
      >
        {dialog?.kind === 'update' && (
          <IncidentUpdateForm incident={incident} resolve={dialog.resolve} onDone={close} />
        )}
        {dialog?.kind === 'edit' && <EditIncidentForm incident={incident} onDone={close} />}
      </Modal>
    </Paper>
  );
}

/** What an editor may do with an incident: post an update, resolve it, change it (each in the card's dialog), delete it. */
function IncidentActions({
  incident,
  setDialog,
}: {
  incident: OrganizationIncident;
  setDialog: (dialog: Dialog) => void;
}) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  return (
    <Group gap="xs">
      <Button
        size="xs"
        onClick={() => setDialog({ kind: 'update', resolve: false })}
        aria-label={`Post an update to ${incident.title}`}
      >
        Post an update
      </Button>
      {incident.status !== 'resolved' && (
        <Button
          size="xs"
          variant="light"
          color="green"
          onClick={() => setDialog({ kind: 'update', resolve: true })}
          aria-label={`Resolve ${incident.title}`}
        >
          Resolve
        </Button>
      )}
      <Button
        size="xs"
        variant="default"
        onClick={() => setDialog({ kind: 'edit' })}
        aria-label={`Edit ${incident.title}`}
      >
        Edit
      </Button>
      <ConfirmButton
        aria-label={`Delete ${incident.title}`}
        title={`Delete ${incident.title}?`}
        message="The incident and its timeline leave the page and its history for good. Resolving keeps them."
        confirmLabel="Delete incident"
        onConfirm={async () => {
          await call(
            api.DELETE('/api/v1/pages/{slug}/incidents/{id}', {
              params: { path: { slug: incident.page.slug, id: incident.id } },
            }),
          );
          await incidentsChanged(queryClient, org);
        }}
      >
        Delete
      </ConfirmButton>
    </Group>
  );
}
