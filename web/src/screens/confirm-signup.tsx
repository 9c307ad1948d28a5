// Finishing a sign-up (/app/confirm-signup?token=…): the link mailed to the address someone signed up with creates the
// account and signs in. A button, not a load: mail scanners that open links must not use it up.
import { Alert, Button, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { api, call } from '../api/client';
import { switchOrganization } from '../api/organization';
import { rememberMe } from '../api/session';
import { formErrors } from '../ui/form-errors';
import { RouterAnchor } from '../ui/router-link';

const route = getRouteApi('/signed-out/confirm-signup');

export default function ConfirmSignupScreen() {
  const { token } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const finish = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/signup/confirm', { body: { token: token ?? '' } })),
    onSuccess: async (me) => {
      rememberMe(queryClient, me);
      const [only, ...more] = me.organizations;
      if (only && more.length === 0) switchOrganization(only.key);
      await navigate({ to: '/monitors' });
    },
  });
  return (
    <>
      <Title order={2} size="h3">
        Finish creating your account
      </Title>
      {token ? (
        <Text size="sm">Your email address is confirmed by this link: create the account and sign in.</Text>
      ) : (
        <Alert color="yellow" title="This link is incomplete">
          Open the link from the mail Warden sent you (it ends in ?token=…).
        </Alert>
      )}
      {finish.error && (
        <Alert color="red" role="alert" title="Could not create the account">
          {formErrors(finish.error, []).message}
        </Alert>
      )}
      {token && (
        <Button onClick={() => finish.mutate()} loading={finish.isPending} fullWidth>
          Create the account
        </Button>
      )}
      <RouterAnchor to="/login" size="sm">
        Back to sign in
      </RouterAnchor>
    </>
  );
}
