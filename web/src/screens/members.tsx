// The Members screen (/app/settings/members): who belongs to the organization with their roles (admins change roles
// and remove members; owners only by owners), invitations (a link shown once, mailed when the server can), pending
// invitations with revoke. What the caller's role may not do is hidden or greyed; the API decides all the same.
import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { ScreenHeader } from '../ui/screen-header';
import { ErrorState, LoadingState } from '../ui/states';
import { InviteForm } from './members/invite-form';
import { MemberTable } from './members/member-table';
import { PendingInvitations } from './members/pending-invitations';

export default function MembersScreen() {
  const { role, userId } = useOrganizationRole();
  const admin = roleAtLeast(role, 'admin');
  const members = useQuery({ queryKey: ['members'], queryFn: () => call(api.GET('/api/v1/members')) });
  // One announced message for the last refused change (a 403 or 409 of the API), above the table.
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <>
      <ScreenHeader title="Members" />
      <Stack gap="lg">
        {admin && <InviteForm role={role} />}
        <div role="alert" aria-live="assertive">
          {refusal && (
            <Alert color="red" title="Not changed" withCloseButton closeButtonLabel="Dismiss" onClose={() => setRefusal(null)}>
              {refusal}
            </Alert>
          )}
        </div>
        {members.error ? (
          <ErrorState error={members.error} onRetry={() => void members.refetch()} title="Could not load the members" />
        ) : members.isPending ? (
          <LoadingState label="Loading members" />
        ) : (
          <MemberTable members={members.data.members} role={role} userId={userId} onRefused={setRefusal} />
        )}
        {admin && <PendingInvitations />}
      </Stack>
    </>
  );
}
