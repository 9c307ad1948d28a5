// Sign in (/app/login): email and password, then the authenticator's code when the account has a second factor, or
// the organization's OpenID Connect provider. Errors are announced; the session cookie is set by the server.
import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Navigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call } from '../api/client';
import { authConfigQuery, rememberMe } from '../api/session';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { RouterAnchor } from '../ui/router-link';
import { SIGN_IN_ERRORS, safeNext } from './account-search';

const route = getRouteApi('/signed-out/login');
type Field = 'email' | 'password' | 'code';
const FIELDS: Field[] = ['email', 'password', 'code'];

export default function LoginScreen() {
  const { next, error } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const config = useQuery(authConfigQuery);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>(() => ({
    fields: {},
    message: error ? (SIGN_IN_ERRORS[error] ?? null) : null,
  }));

  const login = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/auth/login', { body: { email, password, ...(needsCode ? { code: code.trim() } : {}) } })),
    onSuccess: async (me) => {
      rememberMe(queryClient, me);
      await navigate({ href: safeNext(next) ? next : '/monitors' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'second-factor-required') {
        setNeedsCode(true);
        setErrors(noFormErrors());
        return;
      }
      setErrors(formErrors(error, FIELDS));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    login.mutate();
  };
  const oidc = config.data?.oidc;

  // Nobody has an account yet: there is nothing to sign in to, the setup screen creates the owner.
  if (config.data?.setupRequired) return <Navigate to="/setup" replace />;
  return (
    <>
      <Title order={2} size="h3">
        Sign in
      </Title>
      {errors.message && (
        <Alert color="red" role="alert" title="Could not sign in">
          {errors.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {needsCode ? (
            <CodeStep code={code} setCode={setCode} error={errors.fields.code} />
          ) : (
            <>
              <TextInput
                label="Email"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.fields.email}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.fields.password}
              />
            </>
          )}
          <Button type="submit" loading={login.isPending} fullWidth>
            {needsCode ? 'Verify' : 'Sign in'}
          </Button>
        </Stack>
      </form>
      {oidc && !needsCode && (
        <>
          <Divider label="or" labelPosition="center" />
          <Button
            component="a"
            variant="default"
            fullWidth
            href={`/api/v1/auth/oidc/start?next=${encodeURIComponent(`/app${safeNext(next) ? next : '/monitors'}`)}`}
          >
            Sign in with {oidc.name}
          </Button>
        </>
      )}
      <Stack gap={4}>
        <RouterAnchor to="/reset" size="sm">
          Forgot your password?
        </RouterAnchor>
        {config.data?.signup === 'open' && (
          <RouterAnchor to="/invite" size="sm">
            Create an account
          </RouterAnchor>
        )}
        <Anchor href="/" size="sm">
          Public status pages
        </Anchor>
      </Stack>
    </>
  );
}

/** The second step of an account with a second factor: the authenticator's code or a recovery code. */
function CodeStep({ code, setCode, error }: { code: string; setCode: (code: string) => void; error?: string }) {
  return (
    <>
      <Text size="sm" role="status">
        Enter the 6-digit code from your authenticator app, or one of your recovery codes.
      </Text>
      <TextInput
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
        data-autofocus
        autoFocus
        value={code}
        onChange={(e) => setCode(e.currentTarget.value)}
        error={error}
      />
    </>
  );
}
