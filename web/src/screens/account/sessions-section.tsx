// The browsers signed in as the user (device, address, last seen), this one marked; any other can be signed out.
import { Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { sessionsChanged, sessionsQuery } from '../../api/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { ErrorState, LoadingState } from '../../ui/states';
import { Timestamp } from '../../ui/timestamp';
import { Section } from './section';
import { describeAgent } from './user-agent';

export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  return (
    <Section title="Sessions">
      {sessions.error ? (
        <ErrorState
          error={sessions.error}
          onRetry={() => void sessions.refetch()}
          title="Could not load your sessions"
        />
      ) : sessions.isPending ? (
        <LoadingState label="Loading sessions" />
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="xs">
            <Table.Caption>Browsers signed in as you, most recently used first.</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Device</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Address
                </Table.Th>
                <Table.Th scope="col">Last seen</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.sessions.map((session) => (
                <Table.Tr key={session.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" title={session.userAgent ?? undefined}>
                        {describeAgent(session.userAgent)}
                      </Text>
                      {session.current && (
                        <Badge size="xs" variant="light" tt="none">
                          this device
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      since <Timestamp ms={session.createdAt} />
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{session.address ?? '–'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Timestamp ms={session.lastSeenAt} />
                  </Table.Td>
                  <Table.Td>
                    {!session.current && (
                      <ConfirmButton
                        aria-label={`Sign out ${describeAgent(session.userAgent)} (${session.address ?? 'unknown address'})`}
                        title="Sign this session out?"
                        message={`${describeAgent(session.userAgent)} is signed out at once.`}
                        confirmLabel="Sign it out"
                        onConfirm={async () => {
                          await call(
                            api.DELETE('/api/v1/auth/sessions/{id}', { params: { path: { id: session.id } } }),
                          );
                          await sessionsChanged(queryClient);
                        }}
                      >
                        Revoke
                      </ConfirmButton>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}
