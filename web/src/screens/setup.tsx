// First run (/app/setup, where /app leads while no account exists): the first owner and their organization, with the
// setup code the server's start-up log and `warden setup-code` print (or the token of a setup link, ?token=…). Opened on
// the server's own machine (http://localhost…), the screen gets the code by itself (WARDEN_LOCAL_SETUP).
import { Alert, Button, Code, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api/client';
import { switchOrganization } from '../api/organization';
import { authConfigQuery, localSetupCodeQuery, rememberMe } from '../api/session';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';

const route = getRouteApi('/signed-out/setup');
type Field = 'code' | 'name' | 'email' | 'password' | 'organization.name' | 'organization.key';
const FIELDS: Field[] = ['code', 'name', 'email', 'password', 'organization.name', 'organization.key'];

export default function SetupScreen() {
  const { token } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ code: '', name: '', email: '', password: '', organization: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const localCode = useLocalSetupCode(token === undefined);
  const key = organizationKey(form.organization);
  const setup = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/auth/setup', {
          body: {
            ...(token ? { token } : { code: form.code || localCode || '' }),
            name: form.name,
            email: form.email,
            password: form.password,
            ...(form.organization ? { organization: { key, name: form.organization } } : {}),
          },
        }),
      ),
    onSuccess: async (me) => {
      rememberMe(queryClient, me);
      if (form.organization) switchOrganization(key);
      await navigate({ to: '/monitors' });
    },
    onError: (error) => setErrors(formErrors(error, FIELDS)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    setup.mutate();
  };
  const set = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: event.currentTarget.value });

  return (
    <>
      <Title order={2} size="h3">
        Set up Warden
      </Title>
      <Text size="sm">
        No account exists yet. Create the owner&apos;s account: you can invite the others once you are in.
      </Text>
      {errors.message && (
        <Alert color="red" role="alert" title="Could not set up">
          {errors.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!token && localCode && (
            <Alert
              color="green"
              title="Setup code filled in"
              role="status"
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
            >
              This browser runs on the server&apos;s machine, so Warden gave it the setup code itself.
            </Alert>
          )}
          {!token && !localCode && (
            <TextInput
              label="Setup code"
              description={
                <>
                  The 8-character code in the server&apos;s start-up log, or run <Code>warden setup-code</Code> on the
                  server for a new one.
                </>
              }
              placeholder="ABCD-EFGH"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              required
              value={form.code}
              onChange={set('code')}
              error={errors.fields.code}
            />
          )}
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
          <TextInput
            label="Organization name"
            description={key ? `Its key: ${key}` : 'Your community, team or network.'}
            value={form.organization}
            onChange={set('organization')}
            error={errors.fields['organization.name'] ?? errors.fields['organization.key']}
          />
          <Button type="submit" loading={setup.isPending} fullWidth>
            Create the owner account
          </Button>
        </Stack>
      </form>
    </>
  );
}

/**
 * The code from the server's local setup listener, when the server offers one (this page was opened by a loopback
 * address, no account yet); undefined while asking or when it cannot be had (then the screen asks for it).
 */
function useLocalSetupCode(wanted: boolean): string | undefined {
  const config = useQuery({ ...authConfigQuery, enabled: wanted });
  const url = config.data?.localSetup ?? null;
  const local = useQuery({ ...localSetupCodeQuery(url), enabled: wanted && url !== null });
  return local.data;
}

/** An organization's key from its name: lower case, dashes, as warden.yaml keys are written. */
export function organizationKey(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}
