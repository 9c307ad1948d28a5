// The escalation policies on the Alerts screen: each with the monitors it covers and its steps (when, to which
// channels); editors create, change and delete them. Policies warden.yaml manages show its badge and are read-only.
import { Button, Group, List, Modal, Paper, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deletePolicy, type EscalationPolicy, policiesChanged } from '../../api/alerts';
import { channelsQuery } from '../../api/notification-channels';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { NameWithKey } from '../../ui/managed-badge';
import { type QueryLike, QueryState } from '../../ui/query-state';
import { EmptyState } from '../../ui/states';
import { PolicyForm } from './policy-form';

export function PoliciesSection({
  canEdit,
  policies,
}: {
  canEdit: boolean;
  policies: QueryLike<{ escalationPolicies: EscalationPolicy[] }>;
}) {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const channels = useQuery({ ...channelsQuery(org), staleTime: 60_000 });
  const channelNames = new Map((channels.data?.channels ?? []).map((c) => [c.key, c.name]));
  const [editing, setEditing] = useState<EscalationPolicy | 'new' | null>(null);
  const phone = useMediaQuery('(max-width: 36em)');
  const remove = (policy: EscalationPolicy) => async () => {
    await deletePolicy(policy.id);
    await policiesChanged(queryClient, org);
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="escalation-policies">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="escalation-policies">
          Escalation policies
        </Title>
        {canEdit && (
          <Button size="xs" onClick={() => setEditing('new')}>
            New policy
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Step 1 goes to its channels when an alert opens; each next step only if the alert is still open and nobody
        acknowledged it after its minutes. The recovery reaches every channel a step reached.
      </Text>
      <QueryState
        query={policies}
        loading="Loading escalation policies"
        failed="Could not load the escalation policies"
        isEmpty={(data) => data.escalationPolicies.length === 0}
        empty={
          <EmptyState
            title="No escalation policies"
            description={canEdit ? 'Create one, or declare it in warden.yaml.' : 'An editor or warden.yaml adds them.'}
          />
        }
      >
        {(data) => (
          <PolicyTable
            policies={data.escalationPolicies}
            channelNames={channelNames}
            onEdit={canEdit ? setEditing : undefined}
            onRemove={remove}
          />
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New escalation policy' : `Edit ${editing?.name ?? ''}`}
        size="lg"
        fullScreen={phone}
        closeButtonProps={{ 'aria-label': 'Close the form' }}
      >
        {editing !== null && (
          <PolicyForm
            key={editing === 'new' ? 'new' : editing.id}
            policy={editing === 'new' ? undefined : editing}
            channels={channels.data?.channels ?? []}
            onSaved={() => {
              setEditing(null);
              void policiesChanged(queryClient, org);
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Paper>
  );
}

/** The policies, each with what it covers and its steps; Edit and Delete for editors on those the API manages. */
function PolicyTable({
  policies,
  channelNames,
  onEdit,
  onRemove,
}: {
  policies: EscalationPolicy[];
  channelNames: ReadonlyMap<string, string>;
  /** Editors: opens the form (absent for viewers, who see no Actions column). */
  onEdit: ((policy: EscalationPolicy) => void) | undefined;
  onRemove: (policy: EscalationPolicy) => () => Promise<void>;
}) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs">
        <Table.Caption>The organization’s escalation policies, by key.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Policy</Table.Th>
            <Table.Th scope="col">Covers</Table.Th>
            <Table.Th scope="col">Steps</Table.Th>
            {onEdit && <Table.Th scope="col">Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {policies.map((policy) => (
            <Table.Tr key={policy.id}>
              <Table.Td>
                <NameWithKey name={policy.name} objectKey={policy.key} managedBy={policy.managedBy} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{policy.monitors === null ? 'Every monitor' : policy.monitors.join(', ')}</Text>
              </Table.Td>
              <Table.Td>
                <List size="sm" type="ordered">
                  {policy.steps.map((step) => (
                    <List.Item key={step.afterMin}>
                      {step.afterMin === 0 ? 'At once' : `After ${step.afterMin} min`}:{' '}
                      {step.channels.map((key) => channelNames.get(key) ?? key).join(', ')}
                    </List.Item>
                  ))}
                </List>
              </Table.Td>
              {onEdit && (
                <Table.Td>
                  {policy.managedBy !== 'config' && (
                    <Group gap="xs" wrap="wrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => onEdit(policy)}
                        aria-label={`Edit ${policy.name}`}
                      >
                        Edit
                      </Button>
                      <ConfirmButton
                        aria-label={`Delete ${policy.name}`}
                        title={`Delete “${policy.name}”?`}
                        message="Its open alerts stop escalating; a recovery still reaches the channels their steps reached."
                        confirmLabel="Delete the policy"
                        onConfirm={onRemove(policy)}
                      >
                        Delete
                      </ConfirmButton>
                    </Group>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
