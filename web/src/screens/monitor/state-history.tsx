// A monitor's state changes, newest first, with why each happened; older ones a page at a time.
import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { stateHistoryQuery } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import { MonitorStateLabel } from '../../ui/monitor-state';
import { QueryState } from '../../ui/query-state';
import { EmptyState } from '../../ui/states';
import { formatTime } from './format-time';

export function StateHistory({ monitorId }: { monitorId: string }) {
  const history = useInfiniteQuery(stateHistoryQuery(useOrganizationKey(), monitorId));
  return (
    <QueryState
      query={{
        data: history.data?.pages.flatMap((p) => p.changes),
        error: history.error,
        isPending: history.isPending,
        refetch: history.refetch,
      }}
      loading="Loading the state history"
      failed="Could not load the state history"
      isEmpty={(changes) => changes.length === 0}
      empty={
        <EmptyState title="No state changes yet" description="The monitor's first result will be its first change." />
      }
    >
      {(changes) => (
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
            <Button
              size="xs"
              variant="default"
              loading={history.isFetchingNextPage}
              onClick={() => void history.fetchNextPage()}
            >
              Load older changes
            </Button>
          )}
        </Stack>
      )}
    </QueryState>
  );
}
