// The members with their roles: a role picker and a remove button where the caller's role allows (admins; owners
// only by owners), "Leave" on the caller's own row. A refusal of the API goes to the screen's alert.
import { Badge, Group, Select, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { type MemberView as Member, membersChanged } from '../../api/members';
import { useOrganizationKey } from '../../api/organization';
import { grantableRoles, roleAtLeast } from '../../api/role';
import { meChanged } from '../../api/session';
import type { Role } from '../../api/types';
import { ConfirmButton } from '../../ui/confirm-button';
import { formErrors } from '../../ui/form-errors';
import { Timestamp } from '../../ui/timestamp';

export function MemberTable({
  members,
  role,
  userId,
  onRefused,
}: {
  members: Member[];
  role: Role | undefined;
  userId: string;
  onRefused: (message: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const navigate = useNavigate();
  const [saving, setSaving] = useState<string | null>(null);
  const admin = roleAtLeast(role, 'admin');
  // Owners' rows, and making someone owner, are for owners.
  const mayManage = (m: Member) => admin && (m.role !== 'owner' || role === 'owner');

  const changeRole = async (m: Member, next: Role) => {
    onRefused(null);
    setSaving(m.id);
    try {
      await call(api.PATCH('/api/v1/members/{userId}', { params: { path: { userId: m.id } }, body: { role: next } }));
      await membersChanged(queryClient, org, m.id === userId);
    } catch (error) {
      onRefused(`${m.name}’s role: ${formErrors(error, []).message ?? 'refused'}`);
    } finally {
      setSaving(null);
    }
  };
  const remove = (m: Member) => async () => {
    await call(api.DELETE('/api/v1/members/{userId}', { params: { path: { userId: m.id } } }));
    if (m.id === userId) {
      await meChanged(queryClient);
      await navigate({ to: '/monitors' });
      return;
    }
    await membersChanged(queryClient, org);
  };

  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Caption>Members of the organization with their roles, oldest first.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Member</Table.Th>
            <Table.Th scope="col">Role</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Since
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((m) => {
            const self = m.id === userId;
            const manage = mayManage(m);
            return (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <MemberName member={m} self={self} />
                </Table.Td>
                <Table.Td>
                  {manage ? (
                    <Select
                      size="xs"
                      w={120}
                      aria-label={`Role of ${m.name}`}
                      allowDeselect={false}
                      disabled={saving === m.id}
                      data={grantableRoles(role)}
                      value={m.role}
                      onChange={(v) => v && v !== m.role && void changeRole(m, v as Role)}
                    />
                  ) : (
                    <Text size="sm">{m.role}</Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Timestamp ms={m.since} />
                </Table.Td>
                <Table.Td>
                  {(manage || self) && (
                    <ConfirmButton
                      aria-label={self ? 'Leave the organization' : `Remove ${m.name}`}
                      title={self ? 'Leave the organization?' : `Remove ${m.name}?`}
                      message={
                        self
                          ? 'You lose access to everything of this organization until someone invites you again.'
                          : `${m.name} (${m.email}) loses access to this organization; their account stays.`
                      }
                      confirmLabel={self ? 'Leave' : 'Remove'}
                      onConfirm={remove(m)}
                    >
                      {self ? 'Leave' : 'Remove'}
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A member's name (marked when it is the caller) over their email. */
function MemberName({ member, self }: { member: Member; self: boolean }) {
  return (
    <>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={500}>
          {member.name}
        </Text>
        {self && (
          <Badge size="xs" variant="light" tt="none">
            you
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {member.email}
      </Text>
    </>
  );
}
