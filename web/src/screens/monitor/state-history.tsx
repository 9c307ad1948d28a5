// A monitor's state changes, newest first, with why each happened; older ones a page at a time.
import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useStateHistory } from '../../api/monitor';
import { MonitorStateLabel } from '../../ui/monitor-state';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { formatTime } from './format-time';

export function StateHistory({ monitorId }: { monitorId: string }) {
  const history = useStateHistory(monitorId);
  if (history.error) return <ErrorState error={history.error} onRetry={() => void history.refetch()} title="Could not load the state history" />;
  if (!history.data) return <LoadingState label="Loading the state history" />;
  const changes = history.data.pages.flatMap((p) => p.changes);
  if (changes.length === 0) return <EmptyState title="No state changes yet" description="The monitor's first result will be its first change." />;
  return (
    <Stack gap="xs" align="flex-start">
      <Table.ScrollContainer minWidth={480} w="100%">
        <Table striped verticalSpacing={4} fz="sm">
          <Table.Caption>State changes, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>Why</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((c) => (
              <Table.Tr key={`${c.at}-${c.from}-${c.to}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(c.at)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <MonitorStateLabel state={c.from} />
                    <Text size="sm" span aria-hidden>
                      →
                    </Text>
                    <VisuallyHidden>to</VisuallyHidden>
                    <MonitorStateLabel state={c.to} />
                  </Group>
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>{c.message ?? '–'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {history.hasNextPage && (
        <Button size="xs" variant="default" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          Load older changes
        </Button>
      )}
    </Stack>
  );
}
