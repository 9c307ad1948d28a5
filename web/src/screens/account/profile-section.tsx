// The user's name (changed at once) and email: a new address (or one's own, not confirmed yet) gets a link mailed to
// it, and changes when the link is followed; asking needs the password or a code. Without mail, the operator changes it.
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { authConfigQuery, rememberMe } from '../../api/session';
import type { Me } from '../../api/types';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { needsProof, ProofField, proofKind, proofOf } from './proof-prompt';
import { Section } from './section';

type Field = 'name' | 'email' | 'password' | 'code';

export function ProfileSection({ user }: { user: Me['user'] }) {
  const queryClient = useQueryClient();
  const mail = useQuery(authConfigQuery).data?.smtp ?? false;
  const [form, setForm] = useState({ name: user.name, email: user.email, proof: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const name = form.name.trim();
  const email = form.email.trim().toLowerCase();
  const emailChanged = email !== user.email;
  const save = useMutation({
    mutationFn: (changes: { name?: string; email?: string }) =>
      call(
        api.PATCH('/api/v1/auth/me', {
          body: { ...changes, ...(changes.email !== undefined && form.proof ? proofOf(user, form.proof) : {}) },
        }),
      ),
    onSuccess: (answer) => {
      const { emailChange: _pending, ...me } = answer;
      rememberMe(queryClient, me);
      setForm({ name: me.user.name, email: me.user.email, proof: '' });
    },
    onError: (error) =>
      setErrors(
        needsProof(error)
          ? { fields: {}, message: 'Confirm it is you first (you signed in a while ago).' }
          : formErrors(error, ['name', 'email', 'password', 'code']),
      ),
  });
  const send = (changes: { name?: string; email?: string }) => {
    setErrors(noFormErrors());
    save.mutate(changes);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ ...(name !== user.name ? { name } : {}), ...(emailChanged ? { email } : {}) });
  };
  const pending = save.data?.emailChange;
  const kind = proofKind(user);
  return (
    <Section title="Profile">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={480}>
          <FormMessage message={errors.message} />
          <TextInput
            label="Name"
            autoComplete="name"
            required
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={errors.fields.name}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            readOnly={!mail}
            description={
              mail
                ? 'A new address changes once you follow the link we mail to it.'
                : 'This server sends no mail, so a new address cannot be confirmed: ask the operator to change it (warden users set-email).'
            }
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.currentTarget.value })}
            error={errors.fields.email}
            rightSectionWidth={120}
            rightSection={
              user.emailVerified ? undefined : (
                <Badge color="yellow" variant="light" tt="none">
                  Not confirmed
                </Badge>
              )
            }
          />
          {mail && (emailChanged || needsProof(save.error)) && (
            <ProofField
              user={user}
              value={form.proof}
              onChange={(proof) => setForm({ ...form, proof })}
              error={kind === null ? undefined : errors.fields[kind]}
            />
          )}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={name === user.name && !emailChanged}>
              Save
            </Button>
            {mail && !user.emailVerified && !emailChanged && (
              <Button variant="default" onClick={() => send({ email: user.email })} loading={save.isPending}>
                Send a confirmation link
              </Button>
            )}
            {save.isSuccess && !pending && name === user.name && !emailChanged && (
              <Text size="sm" role="status">
                Saved.
              </Text>
            )}
          </Group>
          {pending && (
            <Text size="sm" role="status">
              We sent a link to {pending.email}. Your email changes when you follow it (it works for 24 hours).
            </Text>
          )}
        </Stack>
      </form>
    </Section>
  );
}
