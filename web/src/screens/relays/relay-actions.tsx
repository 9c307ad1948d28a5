// What an admin can do to a relay in its row: issue a new token (shown once by the screen) or delete it; a relay
// warden.yaml manages only says so.
import { Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useOrganizationKey } from '../../api/organization';
import { type RelayView as Relay, relaysChanged } from '../../api/relays';
import type { components } from '../../api/schema';
import { ConfirmButton } from '../../ui/confirm-button';

export type IssuedToken = {
  name: string;
  token: string;
  secretsWithheld?: components['schemas']['RotatedRelayToken']['secretsWithheld'];
};

export function RelayActions({ relay, onToken }: { relay: Relay; onToken: (issued: IssuedToken) => void }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const managed = relay.managedBy === 'config';
  const rotate = async () => {
    const rotated = await call(api.POST('/api/v1/relays/{id}/token', { params: { path: { id: relay.id } } }));
    onToken({ name: rotated.name, token: rotated.token, secretsWithheld: rotated.secretsWithheld });
    await relaysChanged(queryClient, org);
  };
  const remove = async () => {
    await call(api.DELETE('/api/v1/relays/{id}', { params: { path: { id: relay.id } } }));
    await relaysChanged(queryClient, org);
  };
  return managed ? (
    <Text size="sm" c="dimmed">
      In warden.yaml
    </Text>
  ) : (
    <Group gap="xs" wrap="nowrap">
      <ConfirmButton
        color="blue"
        aria-label={`New token for ${relay.name}`}
        title={`New token for “${relay.name}”?`}
        message="The current token stops working at once: the agent needs the new one. Secrets set before now are not sent to the new token until they are sent again."
        confirmLabel="Issue a new token"
        onConfirm={rotate}
      >
        New token
      </ConfirmButton>
      <ConfirmButton
        aria-label={`Delete ${relay.name}`}
        title={`Delete “${relay.name}”?`}
        message="Its token stops working at once. A relay that still runs monitors cannot be deleted: move them first."
        confirmLabel="Delete the relay"
        onConfirm={remove}
      >
        Delete
      </ConfirmButton>
    </Group>
  );
}
