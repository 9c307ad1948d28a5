// Inviting someone: an email (optional: without it, whoever holds the link) and a role; the link is shown once, with
// whether the server mailed it.

import { Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { invitationsChanged } from '../../api/invitations';
import { useOrganizationKey } from '../../api/organization';
import { grantableRoles } from '../../api/role';
import type { Role } from '../../api/types';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { ShownOnce } from '../../ui/shown-once';
import { withArticle } from './with-article';

type Field = 'email' | 'role';
const FIELDS: Field[] = ['email', 'role'];

export function InviteForm({ role }: { role: Role | undefined }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [email, setEmail] = useState('');
  const [invitedRole, setInvitedRole] = useState<Role>('viewer');
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const invite = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/invitations', {
          body: { role: invitedRole, ...(email.trim() ? { email: email.trim() } : {}) },
        }),
      ),
    onSuccess: () => {
      setEmail('');
      void invitationsChanged(queryClient, org);
    },
    onError: (error) => setErrors(formErrors(error, FIELDS)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    invite.mutate();
  };
  const sent = invite.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="invite-heading">
      <Title order={2} size="h4" id="invite-heading" mb="sm">
        Invite someone
      </Title>
      {sent ? (
        <ShownOnce label="Invitation link" value={sent.link} onDone={() => invite.reset()}>
          {sent.mailed
            ? `Mailed to ${sent.invitation.email}. `
            : `Not mailed${sent.invitation.email ? '' : ' (no email given)'}: send the link yourself. `}
          It makes its holder {withArticle(sent.invitation.role)}, works once
          {sent.invitation.email ? ` and only for ${sent.invitation.email}` : ''}.
        </ShownOnce>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" maw={480}>
            <FormMessage message={errors.message} />
            <TextInput
              label="Email"
              description="Optional: only this address may accept, and the link is mailed there when Warden sends mail."
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.fields.email}
            />
            <Select
              label="Role"
              allowDeselect={false}
              data={grantableRoles(role)}
              value={invitedRole}
              onChange={(v) => v && setInvitedRole(v as Role)}
              error={errors.fields.role}
            />
            <Group>
              <Button type="submit" loading={invite.isPending}>
                Create the invitation
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
