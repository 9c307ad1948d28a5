// The Relays screen (/app/relays): each relay with its status (online, offline, never connected) and when it was last
// heard from, its monitors (a link to the list filtered by it); admins create one (its token and the agent's command
// shown once), issue a new token and delete. Relays warden.yaml manages are read-only here.
import { Button, Code, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api/client';
import { useOrganizationKey } from '../api/organization';
import { type RelayView as Relay, relayMonitorsQuery, relaysChanged, relaysQuery } from '../api/relays';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { FormMessage } from '../ui/form-message';
import { NameWithKey } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { EmptyState } from '../ui/states';
import { StatusDot } from '../ui/status-dot';
import { Timestamp } from '../ui/timestamp';
import { type IssuedToken, RelayActions } from './relays/relay-actions';
import { type RelayStatus, relayStatus, timeAgo } from './relays/relay-status';
import { RelayToken } from './relays/relay-token';
import { organizationKey } from './setup';

type Field = 'key' | 'name';
const FIELDS: Field[] = ['key', 'name'];

export default function RelaysScreen() {
  const { role } = useOrganizationRole();
  const admin = roleAtLeast(role, 'admin');
  // Last seen moves while the screen is open: read again every 30 s, and the status is judged against the clock.
  const relays = useQuery({ ...relaysQuery(useOrganizationKey()), refetchInterval: 30_000 });
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  return (
    <>
      <ScreenHeader title="Relays" />
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          A relay runs checks from inside a private network (a LAN, a host behind NAT) and sends the results here; it
          only makes outgoing requests.
        </Text>
        {issued ? (
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="relay-token">
            <Title order={2} size="h4" id="relay-token" mb="sm">
              Token of {issued.name}
            </Title>
            <RelayToken {...issued} onDone={() => setIssued(null)} />
          </Paper>
        ) : (
          admin && <CreateRelay onCreated={setIssued} />
        )}
        <QueryState
          query={relays}
          loading="Loading relays"
          failed="Could not load the relays"
          isEmpty={(data) => data.relays.length === 0}
          empty={
            <EmptyState
              title="No relays yet"
              description={
                admin
                  ? 'Create one above, or declare it in warden.yaml.'
                  : 'Relays are declared in warden.yaml or by an admin.'
              }
            />
          }
        >
          {(data) => <RelayTable relays={data.relays} admin={admin} onToken={setIssued} />}
        </QueryState>
      </Stack>
    </>
  );
}

function CreateRelay({ onCreated }: { onCreated: (issued: { name: string; token: string }) => void }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const shownKey = keyEdited ? key : organizationKey(name);
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/relays', { body: { key: shownKey, name: name.trim() } })),
    onSuccess: (relay) => {
      setName('');
      setKey('');
      setKeyEdited(false);
      onCreated({ name: relay.name, token: relay.token });
      void relaysChanged(queryClient, org);
    },
    onError: (error) => setErrors(formErrors(error, FIELDS)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    create.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="new-relay">
      <Title order={2} size="h4" id="new-relay" mb="sm">
        New relay
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={480}>
          <FormMessage message={errors.message} />
          <TextInput
            label="Name"
            description="Where it runs: “Home lab”, “EU basement”."
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.fields.name}
          />
          <TextInput
            label="Key"
            description="Monitors name their relay by it; it cannot change later."
            required
            value={shownKey}
            onChange={(e) => {
              setKeyEdited(true);
              setKey(e.currentTarget.value);
            }}
            error={errors.fields.key}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <div>
            <Button type="submit" loading={create.isPending}>
              Create the relay
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}

function RelayTable({
  relays,
  admin,
  onToken,
}: {
  relays: Relay[];
  admin: boolean;
  onToken: (issued: IssuedToken) => void;
}) {
  const org = useOrganizationKey();
  const monitors = useQueries({ queries: relays.map((relay) => relayMonitorsQuery(org, relay.key)) });
  const [now, setNow] = useState(() => Date.now());
  useInterval(() => setNow(Date.now()), 15_000, { autoInvoke: true });
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Caption>The organization’s relays, by key.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Relay</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Last seen
            </Table.Th>
            <Table.Th scope="col">Monitors</Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Token
            </Table.Th>
            {admin && <Table.Th scope="col">Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {relays.map((relay, i) => {
            const assigned = monitors[i]?.data;
            const status = relayStatus(relay.lastSeenAt, assigned?.shortestIntervalSec, now);
            return (
              <Table.Tr key={relay.id}>
                <Table.Td>
                  <NameWithKey name={relay.name} objectKey={relay.key} managedBy={relay.managedBy} />
                </Table.Td>
                <Table.Td>
                  <StatusDot {...STATUS_LOOK[status]} />
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  {relay.lastSeenAt === null ? (
                    <Text size="sm">Never</Text>
                  ) : (
                    <Stack gap={0}>
                      <Text size="sm">{timeAgo(relay.lastSeenAt, now)}</Text>
                      <Timestamp ms={relay.lastSeenAt} />
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>
                  {assigned === undefined ? (
                    <Text size="sm">–</Text>
                  ) : (
                    <RouterAnchor
                      to="/monitors"
                      search={{ relay: relay.key }}
                      size="sm"
                      aria-label={`${assigned.total} monitor${assigned.total === 1 ? '' : 's'} on ${relay.name}`}
                    >
                      {assigned.total}
                    </RouterAnchor>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="md">
                  {relay.tokenPrefix ? <Code>{relay.tokenPrefix}…</Code> : <Text size="sm">None issued</Text>}
                </Table.Td>
                {admin && (
                  <Table.Td>
                    <RelayActions relay={relay} onToken={onToken} />
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const STATUS_LOOK: Record<RelayStatus, { color: string; label: string }> = {
  online: { color: 'green', label: 'Online' },
  offline: { color: 'red', label: 'Offline' },
  never: { color: 'gray', label: 'Never connected' },
};
