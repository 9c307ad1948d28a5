// The Organization screen (/app/settings/organization): its name and key, renaming it (admins), the warden.yaml badge
// when the file declares it (then read-only here), deleting it with everything it holds (owners, typing its key), and
// removing the built-in demo (the operator's owner).
import { Alert, Button, Code, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api/client';
import {
  forgetOrganization,
  type OrganizationView as Organization,
  organizationQuery,
  organizationRenamed,
  switchOrganization,
  useOrganizationKey,
} from '../api/organization';
import { roleAtLeast } from '../api/role';
import { freshMe } from '../api/session';
import { type FormErrors, formErrors, noFormErrors } from '../ui/form-errors';
import { FormMessage } from '../ui/form-message';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { Timestamp } from '../ui/timestamp';
import { DemoNotice } from './organization/demo-notice';

export default function OrganizationScreen() {
  const organization = useQuery(organizationQuery(useOrganizationKey()));
  return (
    <>
      <ScreenHeader title="Organization" />
      <QueryState query={organization} loading="Loading the organization" failed="Could not load the organization">
        {(data) => (
          <Stack gap="lg" maw={640}>
            <Summary organization={data} />
            <Rename organization={data} />
            {data.role === 'owner' && <Delete organization={data} />}
            <DemoNotice />
          </Stack>
        )}
      </QueryState>
    </>
  );
}

function Summary({ organization }: { organization: Organization }) {
  const config = organization.managedBy === 'config';
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Text fw={600}>{organization.name}</Text>
        <ManagedBadge managedBy={organization.managedBy} />
      </Group>
      <Text size="sm">
        Key <Code>{organization.key}</Code> · created <Timestamp ms={organization.createdAt} /> · your role:{' '}
        {organization.role}
      </Text>
      {config && (
        <Text size="sm" c="dimmed">
          warden.yaml declares this organization (<Code>organization: {`{ key: ${organization.key} }`}</Code>): rename
          it in the file; it cannot be deleted here.
        </Text>
      )}
    </Stack>
  );
}

function Rename({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [errors, setErrors] = useState<FormErrors<'name'>>(noFormErrors);
  const rename = useMutation({
    mutationFn: () => call(api.PATCH('/api/v1/organization', { body: { name: name.trim() } })),
    onSuccess: (renamed) => organizationRenamed(queryClient, organization.key, renamed),
    onError: (error) => setErrors(formErrors(error, ['name'])),
  });
  const admin = roleAtLeast(organization.role, 'admin');
  const readOnly = !admin || organization.managedBy === 'config';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    rename.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rename-heading">
      <Title order={2} size="h4" id="rename-heading" mb="sm">
        Name
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormMessage message={errors.message} />
          <TextInput
            label="Organization name"
            description={
              !admin
                ? 'Admins and owners rename it.'
                : organization.managedBy === 'config'
                  ? 'Set in warden.yaml.'
                  : 'The key stays as it is.'
            }
            required
            disabled={readOnly}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.fields.name}
          />
          <Group>
            <Button type="submit" loading={rename.isPending} disabled={readOnly || name.trim() === organization.name}>
              Rename
            </Button>
            {rename.isSuccess && (
              <Text size="sm" role="status">
                Renamed.
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Delete({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FormErrors<'confirm'>>(noFormErrors);
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v1/organization', { body: { confirm } })),
    onSuccess: async () => {
      const me = await freshMe(queryClient);
      const next = me.organizations[0];
      if (next) switchOrganization(next.key);
      await navigate({ to: '/monitors', search: {} });
      // Its screens are gone: nothing of it is kept.
      forgetOrganization(queryClient, organization.key);
    },
    onError: (error) => setErrors(formErrors(error, ['confirm'])),
  });
  const managed = organization.managedBy === 'config';
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="delete-heading"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Title order={2} size="h4" id="delete-heading" mb="xs">
        Delete the organization
      </Title>
      <Text size="sm" mb="sm">
        Deletes it with everything it holds — monitors and their history, pages, relays, API keys, notification
        channels, members, invitations and the audit log — for good.
      </Text>
      <Button color="red" variant="light" onClick={open} disabled={managed}>
        Delete {organization.name}…
      </Button>
      <Modal opened={opened} onClose={close} title={`Delete ${organization.name}?`} centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setErrors(noFormErrors());
            remove.mutate();
          }}
          noValidate
        >
          <Stack gap="sm">
            <Alert color="red" variant="light">
              This cannot be undone. Its status pages answer 404 at once.
            </Alert>
            <FormMessage message={errors.message} />
            <TextInput
              label={`Type the key “${organization.key}” to confirm`}
              autoComplete="off"
              data-autofocus
              value={confirm}
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={errors.fields.confirm}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={remove.isPending} disabled={confirm !== organization.key}>
                Delete for good
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
