// A multi-location monitor's places: the rule that decides its state (its quorum), each location's latest result
// (verdict, whether it votes, last check, latency, error) from the monitor's `locationStates`, and the response time
// of each location.
import { Stack, Table, Text } from '@mantine/core';
import type { MonitorView } from '../../api/types';
import { formatTime } from './format-time';
import { LocationLatency } from './location-latency';
import { quorumText, useLocationName } from './location-names';

export function Locations({ monitor }: { monitor: MonitorView }) {
  const nameOf = useLocationName();
  const places = 1 + (monitor.locations?.length ?? 0);
  return (
    <Stack gap="sm">
      <Text size="sm">{quorumText(places, monitor.quorum)}</Text>
      {monitor.locationStates.length === 0 ? (
        <Text size="sm" c="dimmed">
          No location has reported yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560} w="100%">
          <Table striped verticalSpacing={4} fz="sm">
            <Table.Caption>Each location's latest check</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Location</Table.Th>
                <Table.Th>Verdict</Table.Th>
                <Table.Th>Votes</Table.Th>
                <Table.Th>Last check</Table.Th>
                <Table.Th>Latency</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {monitor.locationStates.map((s) => (
                <Table.Tr key={s.location}>
                  <Table.Td>{nameOf(s.location)}</Table.Td>
                  <Table.Td>
                    <Text
                      size="sm"
                      c={s.verdict === 'up' ? undefined : 'red.8'}
                      fw={s.verdict === 'up' ? undefined : 600}
                    >
                      {s.verdict}
                    </Text>
                  </Table.Td>
                  <Table.Td>{s.voting ? 'yes' : 'no (silent)'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(s.checkedAt)}</Table.Td>
                  <Table.Td>{s.latencyMs === null ? '–' : `${s.latencyMs} ms`}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{s.error ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LocationLatency monitorId={monitor.id} />
    </Stack>
  );
}
