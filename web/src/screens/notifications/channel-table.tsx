// The table of the organization's notification channels: name and key, type, on or off, what they get, and (admins)
// a test, the delivery log, Edit and Delete.
import { Button, Group, Table, Text } from '@mantine/core';
import { ConfirmButton } from '../../ui/confirm-button';
import { NameWithKey } from '../../ui/managed-badge';
import { StatusDot } from '../../ui/status-dot';
import type { Channel } from './channel-form';

/** What an admin can do to a channel, and which one is being tested or shown. */
export interface ChannelActions {
  testing: string | undefined;
  onTest: (channel: Channel) => void;
  selected: string | null;
  onSelect: (key: string) => void;
  onEdit: (channel: Channel) => void;
  typesLoaded: boolean;
  onRemove: (channel: Channel) => () => Promise<void>;
}

export function ChannelTable({
  channels,
  admin,
  labels,
  actions,
}: {
  channels: Channel[];
  admin: boolean;
  labels: Map<string, string>;
  actions: ChannelActions;
}) {
  return (
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
          {channels.map((channel) => (
            <ChannelRow
              key={channel.id}
              channel={channel}
              admin={admin}
              type={labels.get(channel.type) ?? channel.type}
              actions={actions}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ChannelRow({
  channel,
  admin,
  type,
  actions,
}: {
  channel: Channel;
  admin: boolean;
  type: string;
  actions: ChannelActions;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <NameWithKey name={channel.name} objectKey={channel.key} managedBy={channel.managedBy} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{type}</Text>
      </Table.Td>
      <Table.Td>
        <StatusDot color={channel.enabled ? 'green' : 'gray'} label={channel.enabled ? 'Enabled' : 'Disabled'} />
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
              loading={actions.testing === channel.key}
              onClick={() => actions.onTest(channel)}
              aria-label={`Send a test to ${channel.name}`}
            >
              Send test
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => actions.onSelect(channel.key)}
              aria-label={`Deliveries of ${channel.name}`}
              aria-pressed={actions.selected === channel.key}
            >
              Deliveries
            </Button>
            {channel.managedBy !== 'config' && (
              <>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => actions.onEdit(channel)}
                  disabled={!actions.typesLoaded}
                  aria-label={`Edit ${channel.name}`}
                >
                  Edit
                </Button>
                <ConfirmButton
                  aria-label={`Delete ${channel.name}`}
                  title={`Delete “${channel.name}”?`}
                  message="The channel and its delivery log go; pending deliveries are not sent. Monitors naming it in notify stop notifying through it."
                  confirmLabel="Delete the channel"
                  onConfirm={actions.onRemove(channel)}
                >
                  Delete
                </ConfirmButton>
              </>
            )}
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** What a channel's rules let through, in a few words. */
function gets(channel: Channel): string {
  const { events, monitors, pages, groups } = channel.rules;
  // Absent is every kind; an empty list is none (the server's rule).
  const what =
    events === undefined
      ? 'All events'
      : events.length === 0
        ? 'No events'
        : `${events.length} event kind${events.length === 1 ? '' : 's'}`;
  const scope = [
    monitors?.length ? `${monitors.length} monitor${monitors.length === 1 ? '' : 's'}` : null,
    pages?.length ? `${pages.length} page${pages.length === 1 ? '' : 's'}` : null,
    groups?.length ? `${groups.length} group${groups.length === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return scope.length > 0 ? `${what} of ${scope.join(', ')}` : what;
}
