// Changing the password: the current one, then the new one; every other session ends (this browser stays signed in).
import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { sessionsChanged } from '../../api/session';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { Section } from './section';

type Field = 'currentPassword' | 'newPassword';

export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const change = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/password', { body: form })),
    onSuccess: () => {
      setForm({ currentPassword: '', newPassword: '' });
      void sessionsChanged(queryClient);
    },
    onError: (error) => setErrors(formErrors(error, ['currentPassword', 'newPassword'])),
  });
  if (!hasPassword)
    return (
      <Section title="Password">
        <Text size="sm">You sign in with your organization’s identity provider; this account has no password.</Text>
      </Section>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    change.mutate();
  };
  return (
    <Section title="Password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={480}>
          <FormMessage message={errors.message} />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={form.currentPassword}
            onChange={(e) => setForm({ ...form, currentPassword: e.currentTarget.value })}
            error={errors.fields.currentPassword}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            value={form.newPassword}
            onChange={(e) => setForm({ ...form, newPassword: e.currentTarget.value })}
            error={errors.fields.newPassword}
          />
          <Group>
            <Button type="submit" loading={change.isPending} disabled={!form.currentPassword || !form.newPassword}>
              Change the password
            </Button>
            {change.isSuccess && (
              <Text size="sm" role="status">
                Changed; your other sessions were signed out.
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
