// Confirming an email address (/app/confirm-email?token=…): the link mailed to a new address. A button, not a load:
// mail scanners that open links must not use it up.
import { Alert, Button, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { api, call } from '../api/client';
import { meChanged } from '../api/session';
import { formErrors } from '../ui/form-errors';
import { RouterAnchor } from '../ui/router-link';

const route = getRouteApi('/signed-out/confirm-email');

export default function ConfirmEmailScreen() {
  const { token } = route.useSearch();
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/email/confirm', { body: { token: token ?? '' } })),
    onSuccess: () => meChanged(queryClient),
  });
  return (
    <>
      <Title order={2} size="h3">
        Confirm your email address
      </Title>
      {!token && (
        <Alert color="yellow" title="This link is incomplete">
          Open the link from the mail Warden sent to the new address (it ends in ?token=…).
        </Alert>
      )}
      {confirm.isSuccess && (
        <Alert color="green" role="status" title="Address confirmed">
          Your account uses {confirm.data.email} from now on: sign in with it.
        </Alert>
      )}
      {confirm.error && (
        <Alert color="red" role="alert" title="Could not confirm the address">
          {formErrors(confirm.error, []).message}
        </Alert>
      )}
      {token && !confirm.isSuccess && (
        <Button onClick={() => confirm.mutate()} loading={confirm.isPending} fullWidth>
          Confirm the address
        </Button>
      )}
      <RouterAnchor to="/account" size="sm">
        Go to your account
      </RouterAnchor>
    </>
  );
}
