// One channel's delivery log (GET …/deliveries, newest first): what each event came to, the receiver's status and error;
// and the outcome of "send a test", announced.
import { Alert, Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { deliveriesQuery } from '../../api/notification-channels';
import { useOrganizationKey } from '../../api/organization';
import type { components } from '../../api/schema';
import { QueryState } from '../../ui/query-state';
import { EmptyState } from '../../ui/states';
import { StatusDot } from '../../ui/status-dot';
import { Timestamp } from '../../ui/timestamp';

type Delivery = components['schemas']['NotificationDelivery'];
export type TestOutcome = components['schemas']['NotificationTestOutcome'];

const STATUS_COLOR: Record<Delivery['status'], string> = {
  sent: 'green',
  pending: 'blue',
  sending: 'blue',
  dead: 'red',
  skipped: 'gray',
};
const STATUS_WORD: Record<Delivery['status'], string> = {
  sent: 'Sent',
  pending: 'Pending',
  sending: 'Sending',
  dead: 'Failed',
  skipped: 'Skipped',
};

export function DeliveryLog({ channelKey, channelName }: { channelKey: string; channelName: string }) {
  const deliveries = useQuery(deliveriesQuery(useOrganizationKey(), channelKey));
  return (
    <QueryState
      query={deliveries}
      loading="Loading deliveries"
      failed="Could not load the deliveries"
      isEmpty={(data) => data.deliveries.length === 0}
      empty={
        <EmptyState
          title="Nothing sent yet"
          description="Events this channel gets, and tests, are listed here for 30 days."
        />
      }
    >
      {(data) => <DeliveryTable deliveries={data.deliveries} channelName={channelName} />}
    </QueryState>
  );
}

function DeliveryTable({ deliveries, channelName }: { deliveries: Delivery[]; channelName: string }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs">
        <Table.Caption>The last 50 deliveries of {channelName}, newest first.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Event</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Attempts
            </Table.Th>
            <Table.Th scope="col">Answer</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>
                <Timestamp ms={d.sentAt ?? d.createdAt} />
              </Table.Td>
              <Table.Td>
                <Code>{d.kind}</Code>
              </Table.Td>
              <Table.Td>
                <StatusDot color={STATUS_COLOR[d.status]} label={STATUS_WORD[d.status]} />
              </Table.Td>
              <Table.Td visibleFrom="sm">{d.attempts}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {answerOf(d)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The receiver's status and what went wrong, in one line. */
function answerOf(d: Delivery): string {
  const parts = [
    d.lastStatus !== null ? `HTTP ${d.lastStatus}` : null,
    d.lastError,
    d.status !== 'sent' && d.lastAnswer ? `“${d.lastAnswer}”` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : '–';
}

/** What a test came to, announced: sent, skipped (nobody confirmed yet on the system SMTP server), or failed with the receiver's answer. */
export function TestResult({ result, channelName }: { result: TestOutcome; channelName: string }) {
  const sent = result.outcome === 'sent';
  if (result.outcome === 'skipped')
    return (
      <Alert color="yellow" variant="light" role="alert" title={`Nobody has confirmed ${channelName} yet`}>
        <Text size="sm">{answerOf(result.delivery)}</Text>
      </Alert>
    );
  return (
    <Alert
      color={sent ? 'green' : 'red'}
      variant="light"
      role="alert"
      title={sent ? `Test sent to ${channelName}` : `The test to ${channelName} failed`}
    >
      <Text size="sm">
        {sent
          ? `The receiver accepted it${result.delivery.lastStatus !== null ? ` (HTTP ${result.delivery.lastStatus})` : ''}.`
          : answerOf(result.delivery)}
      </Text>
    </Alert>
  );
}
