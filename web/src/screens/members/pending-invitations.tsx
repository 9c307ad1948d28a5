// The invitations nobody accepted yet (expired ones marked), each revocable.
import { Badge, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { invitationsChanged, invitationsQuery } from '../../api/invitations';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { QueryState } from '../../ui/query-state';
import { Timestamp } from '../../ui/timestamp';

export function PendingInvitations() {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const invitations = useQuery(invitationsQuery(org));
  return (
    <Stack gap="xs" component="section" aria-labelledby="pending-heading">
      <Title order={2} size="h4" id="pending-heading">
        Pending invitations
      </Title>
      <QueryState
        query={invitations}
        loading="Loading invitations"
        failed="Could not load the invitations"
        isEmpty={(data) => data.invitations.length === 0}
        empty={
          <Text size="sm" c="dimmed">
            None.
          </Text>
        }
      >
        {(data) => (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="xs">
              <Table.Caption>Invitations not accepted yet, newest first.</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">For</Table.Th>
                  <Table.Th scope="col">Role</Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    Expires
                  </Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.invitations.map((invitation) => {
                  const who = invitation.email ?? 'Anyone with the link';
                  return (
                    <Table.Tr key={invitation.id}>
                      <Table.Td>
                        <Text size="sm">{who}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{invitation.role}</Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        {invitation.expired ? (
                          <Badge color="gray" variant="light" tt="none">
                            Expired
                          </Badge>
                        ) : (
                          <Timestamp ms={invitation.expiresAt} />
                        )}
                      </Table.Td>
                      <Table.Td>
                        <ConfirmButton
                          aria-label={`Revoke the invitation for ${who}`}
                          title="Revoke the invitation?"
                          message={`The link (${invitation.role}, ${who}) stops working.`}
                          confirmLabel="Revoke"
                          onConfirm={async () => {
                            await call(
                              api.DELETE('/api/v1/invitations/{id}', { params: { path: { id: invitation.id } } }),
                            );
                            await invitationsChanged(queryClient, org);
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Stack>
  );
}
