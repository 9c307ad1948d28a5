// Sign up and accept an invitation (/app/invite?token=…): shows where the invitation leads, lets a signed-in user
// accept it, or creates the account with it. Without a token: open sign-up, when the server allows it.
import { Alert, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api/client';
import { switchOrganization } from '../api/organization';
import { authConfigQuery, invitationPreviewQuery, meQuery, rememberMe } from '../api/session';
import type { InvitationPreview } from '../api/types';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { RouterAnchor } from '../ui/router-link';
import { ErrorState, LoadingState } from '../ui/states';

const route = getRouteApi('/signed-out/invite');
type Field = 'name' | 'email' | 'password';
const FIELDS: Field[] = ['name', 'email', 'password'];

export default function InviteScreen() {
  const { token } = route.useSearch();
  const config = useQuery(authConfigQuery);
  const preview = useQuery(invitationPreviewQuery(token));
  const me = useQuery({ ...meQuery, enabled: token !== undefined });

  if (token === undefined) {
    if (config.isPending) return <LoadingState />;
    if (config.data?.signup !== 'open')
      return (
        <Alert color="yellow" title="Sign-up is by invitation">
          Ask an administrator of your organization for an invitation link.
        </Alert>
      );
    return <SignUp />;
  }
  if (preview.isPending) return <LoadingState label="Reading the invitation" />;
  if (preview.error) return <ErrorState error={preview.error} title="This invitation cannot be used" />;
  const invitation = preview.data;
  return (
    <>
      <Title order={2} size="h3">
        Join {invitation.organization.name}
      </Title>
      <Text size="sm">
        You are invited as {invitation.role}
        {invitation.email ? ` (${invitation.email})` : ''}.
      </Text>
      {me.data ? <Accept token={token} invitation={invitation} /> : <SignUp token={token} invitation={invitation} />}
      {!me.data && (
        <RouterAnchor to="/login" search={{ next: `/invite?token=${encodeURIComponent(token)}` }} size="sm">
          I already have an account: sign in first
        </RouterAnchor>
      )}
    </>
  );
}

function Accept({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/invitations/accept', { body: { token } })),
    onSuccess: async (me) => {
      rememberMe(queryClient, me);
      switchOrganization(invitation.organization.key);
      await navigate({ to: '/monitors' });
    },
  });
  return (
    <Stack gap="sm">
      {accept.error && (
        <Alert color="red" role="alert" title="Could not accept">
          {formErrors(accept.error, []).message}
        </Alert>
      )}
      <Button onClick={() => accept.mutate()} loading={accept.isPending}>
        Accept and join {invitation.organization.name}
      </Button>
    </Stack>
  );
}

function SignUp({ token, invitation }: { token?: string; invitation?: InvitationPreview }) {
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', email: invitation?.email ?? '', password: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const signUp = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/auth/signup', { body: { ...form, ...(token ? { invitation: token } : {}) } })),
    onSuccess: async (answer) => {
      // A server that sends mail answers 202: the sign-up finishes from the link it mailed.
      if (!('user' in answer)) return;
      rememberMe(queryClient, answer);
      if (invitation) switchOrganization(invitation.organization.key);
      await navigate({ to: '/monitors' });
    },
    onError: (error) => setErrors(formErrors(error, FIELDS)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    signUp.mutate();
  };
  const set = (field: Field) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: event.currentTarget.value });
  if (signUp.data && !('user' in signUp.data))
    return (
      <Alert color="blue" role="status" title="Check your mail">
        We sent a message to {signUp.data.email}. Follow the link in it to finish creating your account
        {invitation ? ` and join ${invitation.organization.name}` : ''}; it works for 24 hours.
      </Alert>
    );
  return (
    <>
      {!invitation && (
        <Title order={2} size="h3">
          Create an account
        </Title>
      )}
      {errors.message && (
        <Alert color="red" role="alert" title="Could not create the account">
          {errors.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Your name"
            autoComplete="name"
            required
            value={form.name}
            onChange={set('name')}
            error={errors.fields.name}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            readOnly={Boolean(invitation?.email)}
            value={form.email}
            onChange={set('email')}
            error={errors.fields.email}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            required
            value={form.password}
            onChange={set('password')}
            error={errors.fields.password}
          />
          <Button type="submit" loading={signUp.isPending} fullWidth>
            {invitation ? `Create the account and join ${invitation.organization.name}` : 'Create the account'}
          </Button>
        </Stack>
      </form>
    </>
  );
}
