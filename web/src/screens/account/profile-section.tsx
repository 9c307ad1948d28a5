// The user's name and email, changed together; the header's menu follows.
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { rememberMe } from '../../api/session';
import type { Me } from '../../api/types';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { Section } from './section';

type Field = 'name' | 'email';

export function ProfileSection({ user }: { user: Me['user'] }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: user.name, email: user.email });
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const save = useMutation({
    mutationFn: () => {
      const changes = { ...(form.name.trim() !== user.name ? { name: form.name.trim() } : {}), ...(form.email.trim() !== user.email ? { email: form.email.trim() } : {}) };
      return call(api.PATCH('/api/v1/auth/me', { body: changes }));
    },
    onSuccess: (me) => rememberMe(queryClient, me),
    onError: (error) => setErrors(formErrors(error, ['name', 'email'])),
  });
  const changed = form.name.trim() !== user.name || form.email.trim() !== user.email;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    save.mutate();
  };
  return (
    <Section title="Profile">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={480}>
          {errors.message && (
            <Text size="sm" c="red" role="alert">
              {errors.message}
            </Text>
          )}
          <TextInput label="Name" autoComplete="name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} error={errors.fields.name} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.currentTarget.value })}
            error={errors.fields.email}
          />
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              Save
            </Button>
            {save.isSuccess && !changed && (
              <Text size="sm" role="status">
                Saved.
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
