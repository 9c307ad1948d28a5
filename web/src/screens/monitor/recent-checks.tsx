// A monitor's latest checks, newest first, with what each found; older ones a page at a time.
import { Button, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { recentChecksQuery } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import { QueryState } from '../../ui/query-state';
import { EmptyState } from '../../ui/states';
import { formatTime } from './format-time';

export function RecentChecks({ monitorId }: { monitorId: string }) {
  const checks = useInfiniteQuery(recentChecksQuery(useOrganizationKey(), monitorId));
  return (
    <QueryState
      query={{
        data: checks.data?.pages.flatMap((p) => p.checks),
        error: checks.error,
        isPending: checks.isPending,
        refetch: checks.refetch,
      }}
      loading="Loading checks"
      failed="Could not load the checks"
      isEmpty={(rows) => rows.length === 0}
      empty={<EmptyState title="No checks yet" description="Results appear here as they come in." />}
    >
      {(rows) => (
        <Stack gap="xs" align="flex-start">
          <Table.ScrollContainer minWidth={480} w="100%">
            <Table striped verticalSpacing={4} fz="sm">
              <Table.Caption>Recent checks, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Latency</Table.Th>
                  <Table.Th>Message</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(c.checkedAt)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c={c.ok ? undefined : 'red.8'} fw={c.ok ? undefined : 600}>
                        {c.ok ? 'Passed' : 'Failed'}
                      </Text>
                    </Table.Td>
                    <Table.Td>{c.latencyMs === null ? '–' : `${c.latencyMs} ms`}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      {(c.ok ? c.message : (c.error ?? c.message)) ?? '–'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {checks.hasNextPage && (
            <Button
              size="xs"
              variant="default"
              loading={checks.isFetchingNextPage}
              onClick={() => void checks.fetchNextPage()}
            >
              Load older checks
            </Button>
          )}
        </Stack>
      )}
    </QueryState>
  );
}
