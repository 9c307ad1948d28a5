// The Members screen (/app/settings/members): who belongs to the organization with their roles (admins change roles
// and remove members; owners only by owners), invitations (a link shown once, mailed when the server can), pending
// invitations with revoke. What the caller's role may not do is hidden or greyed; the API decides all the same.
import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { membersQuery } from '../api/members';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { InviteForm } from './members/invite-form';
import { MemberTable } from './members/member-table';
import { PendingInvitations } from './members/pending-invitations';

export default function MembersScreen() {
  const { role, userId } = useOrganizationRole();
  const admin = roleAtLeast(role, 'admin');
  const members = useQuery(membersQuery(useOrganizationKey()));
  // One announced message for the last refused change (a 403 or 409 of the API), above the table.
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <>
      <ScreenHeader title="Members" />
      <Stack gap="lg">
        {admin && <InviteForm role={role} />}
        <div role="alert" aria-live="assertive">
          {refusal && (
            <Alert
              color="red"
              title="Not changed"
              withCloseButton
              closeButtonLabel="Dismiss"
              onClose={() => setRefusal(null)}
            >
              {refusal}
            </Alert>
          )}
        </div>
        <QueryState query={members} loading="Loading members" failed="Could not load the members">
          {(data) => <MemberTable members={data.members} role={role} userId={userId} onRefused={setRefusal} />}
        </QueryState>
        {admin && <PendingInvitations />}
      </Stack>
    </>
  );
}
