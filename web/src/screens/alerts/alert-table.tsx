// The table of alerts: the monitor (a link to it), open or resolved and how it opened, when, how far its escalation
// went, who acknowledged it and when (with their note), and for editors an Acknowledge button on an open one.
import { Badge, Button, Code, Stack, Table, Text } from '@mantine/core';
import type { AlertView } from '../../api/alerts';
import { RouterAnchor } from '../../ui/router-link';
import { StatusDot } from '../../ui/status-dot';
import { Timestamp } from '../../ui/timestamp';

export function AlertTable({
  alerts,
  stepsOf,
  onAcknowledge,
}: {
  alerts: AlertView[];
  /** How many steps each policy (by key) has. */
  stepsOf: ReadonlyMap<string, number>;
  /** Editors: acknowledges an alert (absent for viewers, who see no Actions column). */
  onAcknowledge: ((alert: AlertView) => void) | undefined;
}) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Caption>The alerts, newest first.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Monitor</Table.Th>
            <Table.Th scope="col">State</Table.Th>
            <Table.Th scope="col">Opened</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Escalation
            </Table.Th>
            <Table.Th scope="col">Acknowledged</Table.Th>
            {onAcknowledge && <Table.Th scope="col">Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {alerts.map((alert) => (
            <Table.Tr key={alert.id}>
              <Table.Td>
                <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: alert.monitor.id }} size="sm" fw={500}>
                  {alert.monitor.name}
                </RouterAnchor>
                <br />
                <Code>{alert.monitor.key}</Code>
              </Table.Td>
              <Table.Td>
                <AlertState alert={alert} />
              </Table.Td>
              <Table.Td>
                <Timestamp ms={alert.openedAt} />
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{escalation(alert, stepsOf)}</Text>
              </Table.Td>
              <Table.Td>
                <Acknowledged alert={alert} />
              </Table.Td>
              {onAcknowledge && (
                <Table.Td>
                  {alert.state === 'open' && alert.acknowledged === null && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => onAcknowledge(alert)}
                      aria-label={`Acknowledge the alert of ${alert.monitor.name}`}
                    >
                      Acknowledge
                    </Button>
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

function AlertState({ alert }: { alert: AlertView }) {
  if (alert.state === 'resolved')
    return (
      <Stack gap={2}>
        <StatusDot color="green" label="Resolved" />
        <Timestamp ms={alert.resolvedAt} />
      </Stack>
    );
  return <StatusDot color={alert.openedState === 'down' ? 'red' : 'yellow'} label={`Open (${alert.openedState})`} />;
}

function Acknowledged({ alert }: { alert: AlertView }) {
  const ack = alert.acknowledged;
  if (!ack)
    return (
      <Text size="sm" c="dimmed">
        Not acknowledged
      </Text>
    );
  return (
    <Stack gap={2}>
      <Text size="sm">
        <Badge variant="light" color="blue" size="sm" tt="none" mr={6}>
          Acknowledged
        </Badge>
        by {ack.by === 'link' ? 'the link in the alert' : ack.by}
      </Text>
      <Timestamp ms={ack.at} />
      {ack.note && (
        <Text size="sm" c="dimmed">
          “{ack.note}”
        </Text>
      )}
    </Stack>
  );
}

/** "Step 2 of 3 (oncall)", "Step 1 (deleted policy)", or a dash without a policy. */
function escalation(alert: AlertView, stepsOf: ReadonlyMap<string, number>): string {
  const e = alert.escalation;
  if (!e) return '–';
  const total = e.policy === null ? undefined : stepsOf.get(e.policy);
  const step = e.stepsSent === 0 ? 'No step yet' : `Step ${e.stepsSent}${total ? ` of ${total}` : ''}`;
  return `${step} (${e.policy ?? 'deleted policy'})`;
}
