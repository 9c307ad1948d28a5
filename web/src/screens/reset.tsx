// Password reset (/app/reset?token=…): sets a new password with a one-time link; without one, says how to get it.
import { Alert, Button, Code, PasswordInput, Stack, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api/client';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { RouterAnchor } from '../ui/router-link';

const route = getRouteApi('/signed-out/reset');

export default function ResetScreen() {
  const { token } = route.useSearch();
  return (
    <>
      <Title order={2} size="h3">
        Reset your password
      </Title>
      {token ? <NewPassword token={token} /> : <AskForLink />}
      <RouterAnchor to="/login" size="sm">
        Back to sign in
      </RouterAnchor>
    </>
  );
}

/** Reset links are made by an administrator (`warden users reset-password`), not requested here: no mail is needed. */
function AskForLink() {
  return (
    <Alert color="blue" title="You need a reset link">
      Ask an administrator of Warden for a password link; it opens this page with the token. Administrators make one
      with <Code>warden users reset-password</Code>.
    </Alert>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors<'password'>>(noFormErrors);
  const confirm = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/password-reset', { body: { token, password } })),
    onError: (error) => setErrors(formErrors(error, ['password'])),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    confirm.mutate();
  };
  if (confirm.isSuccess)
    return (
      <Alert color="green" role="status" title="Password changed">
        Every session of your account was signed out. Sign in with the new password.
      </Alert>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {errors.message && (
          <Alert color="red" role="alert" title="Could not change the password">
            {errors.message}
          </Alert>
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.fields.password}
        />
        <Button type="submit" loading={confirm.isPending} fullWidth>
          Change the password
        </Button>
      </Stack>
    </form>
  );
}
