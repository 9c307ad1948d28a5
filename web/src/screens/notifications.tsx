// The Notifications screen (/app/notifications): the organization's channels (type, on or off, what they get); admins
// create and change them with a form generated from each type's JSON Schema, send a test and read a channel's delivery
// log. Channels warden.yaml manages can be tested but not changed here.
import { Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { channelsChanged, channelsQuery, channelTypesQuery, deliveriesChanged } from '../api/notification-channels';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { ConfirmButton } from '../ui/confirm-button';
import { NameWithKey } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { EmptyState } from '../ui/states';
import { StatusDot } from '../ui/status-dot';
import { type Channel, ChannelForm, type ChannelTypes } from './notifications/channel-form';
import { DeliveryLog, type TestOutcome, TestResult } from './notifications/deliveries';

export default function NotificationsScreen() {
  const { role } = useOrganizationRole();
  const admin = roleAtLeast(role, 'admin');
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const channels = useQuery(channelsQuery(org));
  const types = useQuery(channelTypesQuery);
  // The form: a new channel, or the one being changed.
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [tested, setTested] = useState<{ key: string; result: TestOutcome } | null>(null);
  const phone = useMediaQuery('(max-width: 36em)');
  const labels = new Map((types.data?.types ?? []).map((t) => [t.id, t.label]));

  const test = useMutation({
    mutationFn: (channel: Channel) =>
      call(api.POST('/api/v1/notification-channels/{key}/test', { params: { path: { key: channel.key } } })),
    onSuccess: (result, channel) => {
      setSelected(channel.key);
      setTested({ key: channel.key, result });
      void deliveriesChanged(queryClient, org, channel.key);
    },
  });
  const remove = (channel: Channel) => async () => {
    await call(api.DELETE('/api/v1/notification-channels/{key}', { params: { path: { key: channel.key } } }));
    if (selected === channel.key) setSelected(null);
    await channelsChanged(queryClient, org);
  };
  const saved = (channel: Channel) => {
    setEditing(null);
    setSelected(channel.key);
    void channelsChanged(queryClient, org);
  };
  const chosen = channels.data?.channels.find((c) => c.key === selected);

  return (
    <>
      <ScreenHeader title="Notifications">
        {admin && (
          <Button onClick={() => setEditing('new')} disabled={!types.data}>
            New channel
          </Button>
        )}
      </ScreenHeader>
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          Channels carry monitor, relay, incident, maintenance and certificate events to Discord, Slack, Teams,
          Telegram, ntfy, email or a signed webhook.
        </Text>
        {test.error && (
          <Text size="sm" c="red" role="alert">
            The test could not be sent: {test.error.message}
          </Text>
        )}
        <QueryState
          query={channels}
          loading="Loading channels"
          failed="Could not load the channels"
          isEmpty={(data) => data.channels.length === 0}
          empty={
            <EmptyState
              title="No channels yet"
              description={
                admin ? 'Create one to hear about outages.' : 'Channels are declared in warden.yaml or by an admin.'
              }
            />
          }
        >
          {(data) => (
            <Table.ScrollContainer minWidth={320}>
              <Table verticalSpacing="xs" highlightOnHover>
                <Table.Caption>The organization’s notification channels, by key.</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Channel</Table.Th>
                    <Table.Th scope="col" visibleFrom="sm">
                      Type
                    </Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col" visibleFrom="md">
                      Gets
                    </Table.Th>
                    {admin && <Table.Th scope="col">Actions</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.channels.map((channel) => (
                    <Table.Tr key={channel.id}>
                      <Table.Td>
                        <NameWithKey name={channel.name} objectKey={channel.key} managedBy={channel.managedBy} />
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <Text size="sm">{labels.get(channel.type) ?? channel.type}</Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusDot
                          color={channel.enabled ? 'green' : 'gray'}
                          label={channel.enabled ? 'Enabled' : 'Disabled'}
                        />
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <Text size="sm">{gets(channel)}</Text>
                      </Table.Td>
                      {admin && (
                        <Table.Td>
                          <Group gap="xs" wrap="wrap">
                            <Button
                              size="xs"
                              variant="default"
                              loading={test.isPending && test.variables?.key === channel.key}
                              onClick={() => test.mutate(channel)}
                              aria-label={`Send a test to ${channel.name}`}
                            >
                              Send test
                            </Button>
                            <Button
                              size="xs"
                              variant="default"
                              onClick={() => setSelected(channel.key)}
                              aria-label={`Deliveries of ${channel.name}`}
                              aria-pressed={selected === channel.key}
                            >
                              Deliveries
                            </Button>
                            {channel.managedBy !== 'config' && (
                              <>
                                <Button
                                  size="xs"
                                  variant="default"
                                  onClick={() => setEditing(channel)}
                                  disabled={!types.data}
                                  aria-label={`Edit ${channel.name}`}
                                >
                                  Edit
                                </Button>
                                <ConfirmButton
                                  aria-label={`Delete ${channel.name}`}
                                  title={`Delete “${channel.name}”?`}
                                  message="The channel and its delivery log go; pending deliveries are not sent. Monitors naming it in notify stop notifying through it."
                                  confirmLabel="Delete the channel"
                                  onConfirm={remove(channel)}
                                >
                                  Delete
                                </ConfirmButton>
                              </>
                            )}
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
        {admin && chosen && (
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="channel-deliveries">
            <Title order={2} size="h4" id="channel-deliveries" mb="sm">
              Deliveries of {chosen.name}
            </Title>
            <Stack gap="sm">
              {tested?.key === chosen.key && <TestResult result={tested.result} channelName={chosen.name} />}
              <DeliveryLog channelKey={chosen.key} channelName={chosen.name} />
            </Stack>
          </Paper>
        )}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New notification channel' : `Edit ${editing?.name ?? ''}`}
        size="lg"
        fullScreen={phone}
        closeButtonProps={{ 'aria-label': 'Close the form' }}
      >
        {editing !== null && types.data && (
          <ChannelForm
            key={editing === 'new' ? 'new' : editing.key}
            types={types.data as ChannelTypes}
            channel={editing === 'new' ? undefined : editing}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

/** What a channel's rules let through, in a few words. */
function gets(channel: Channel): string {
  const { events, monitors, pages, groups } = channel.rules;
  const what =
    events && events.length > 0 ? `${events.length} event kind${events.length === 1 ? '' : 's'}` : 'All events';
  const scope = [
    monitors?.length ? `${monitors.length} monitor${monitors.length === 1 ? '' : 's'}` : null,
    pages?.length ? `${pages.length} page${pages.length === 1 ? '' : 's'}` : null,
    groups?.length ? `${groups.length} group${groups.length === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return scope.length > 0 ? `${what} of ${scope.join(', ')}` : what;
}
