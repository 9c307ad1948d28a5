// The API keys screen (/app/settings/api-keys): the organization's keys (name, prefix, scope, created, last used,
// revoked), a new key with its scope — shown once — and revoking one after a confirmation. Admins and owners only.
import { Badge, Button, Code, Paper, Radio, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type ApiKeyView as ApiKey, apiKeysChanged, apiKeysQuery } from '../api/api-keys';
import { api, call, isApiError } from '../api/client';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { ConfirmButton } from '../ui/confirm-button';
import { Forbidden } from '../ui/forbidden';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { FormMessage } from '../ui/form-message';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { ShownOnce } from '../ui/shown-once';
import { EmptyState } from '../ui/states';
import { Timestamp } from '../ui/timestamp';

type Scope = ApiKey['scope'];
type Field = 'name' | 'scope';
const FIELDS: Field[] = ['name', 'scope'];

export default function ApiKeysScreen() {
  const { role } = useOrganizationRole();
  const allowed = roleAtLeast(role, 'admin');
  const keys = useQuery({ ...apiKeysQuery(useOrganizationKey()), enabled: allowed });
  return (
    <>
      <ScreenHeader title="API keys" />
      {!allowed || isApiError(keys.error, 403) ? (
        <Forbidden what="see and manage API keys" least="admin" role={role} error={keys.error} />
      ) : (
        <Stack gap="lg">
          <Text size="sm" c="dimmed">
            A key lets a script or another service use Warden’s API as this organization: a read key only reads (like a
            viewer), a write key changes anything an admin can.
          </Text>
          <CreateKey />
          <QueryState
            query={keys}
            loading="Loading API keys"
            failed="Could not load the API keys"
            isEmpty={(data) => data.apiKeys.length === 0}
            empty={<EmptyState title="No API keys yet" description="Create one above; it is shown once." />}
          >
            {(data) => <KeyTable keys={data.apiKeys} />}
          </QueryState>
        </Stack>
      )}
    </>
  );
}

function CreateKey() {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [errors, setErrors] = useState<FormErrors<Field>>(noFormErrors);
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/api-keys', { body: { name: name.trim(), scope } })),
    onSuccess: () => {
      setName('');
      void apiKeysChanged(queryClient, org);
    },
    onError: (error) => setErrors(formErrors(error, FIELDS)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    create.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="new-api-key">
      <Title order={2} size="h4" id="new-api-key" mb="sm">
        New API key
      </Title>
      {create.data ? (
        <ShownOnce label="API key" value={create.data.key} onDone={() => create.reset()}>
          The {create.data.scope} key “{create.data.name}”. Send it as <Code>Authorization: Bearer …</Code>.
        </ShownOnce>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" maw={480}>
            <FormMessage message={errors.message} />
            <TextInput
              label="Name"
              description="What the key is for: a script, a service, a person."
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.fields.name}
            />
            <Radio.Group label="Scope" value={scope} onChange={(v) => setScope(v as Scope)} error={errors.fields.scope}>
              <Stack gap={6} mt={6}>
                <Radio value="read" label="Read" description="GET requests only" />
                <Radio value="write" label="Write" description="Every request, as an admin" />
              </Stack>
            </Radio.Group>
            <div>
              <Button type="submit" loading={create.isPending}>
                Create the key
              </Button>
            </div>
          </Stack>
        </form>
      )}
    </Paper>
  );
}

function KeyTable({ keys }: { keys: ApiKey[] }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const revoke = (key: ApiKey) => async () => {
    await call(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: key.id } } }));
    await apiKeysChanged(queryClient, org);
  };
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Caption>The organization’s API keys, oldest first; revoked keys stay listed.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Prefix
            </Table.Th>
            <Table.Th scope="col">Scope</Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Created
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Last used
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {key.name}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Code>{key.prefix}…</Code>
              </Table.Td>
              <Table.Td>
                <Badge
                  variant={key.scope === 'write' ? 'filled' : 'default'}
                  color={key.scope === 'write' ? 'red.9' : undefined}
                  tt="none"
                >
                  {key.scope}
                </Badge>
              </Table.Td>
              <Table.Td visibleFrom="md">
                <Timestamp ms={key.createdAt} />
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Timestamp ms={key.lastUsedAt} empty="Never" />
              </Table.Td>
              <Table.Td>
                {key.revokedAt !== null ? (
                  <Text size="sm">
                    Revoked <Timestamp ms={key.revokedAt} />
                  </Text>
                ) : (
                  <ConfirmButton
                    aria-label={`Revoke ${key.name}`}
                    title={`Revoke “${key.name}”?`}
                    message={`Requests with the key ${key.prefix}… are refused from now on. This cannot be undone.`}
                    confirmLabel="Revoke the key"
                    onConfirm={revoke(key)}
                  >
                    Revoke
                  </ConfirmButton>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
