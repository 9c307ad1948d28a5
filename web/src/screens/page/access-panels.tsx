// Who reaches a page and where: its password (set or removed, never shown) and its custom domain with the DNS record
// that proves it and a "verify now".
import { Alert, Button, Code, CopyButton, Group, PasswordInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { useOrganizationKey } from '../../api/organization';
import { type PageView, pageChanged } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { Timestamp } from '../../ui/timestamp';
import { TintedBadge } from './tinted-badge';

export function PasswordPanel({ page, readOnly }: { page: PageView; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [password, setPassword] = useState('');
  const save = useMutation({
    mutationFn: (next: string | null) =>
      call(api.PATCH('/api/v1/pages/{slug}', { params: { path: { slug: page.slug } }, body: { password: next } })),
    onSuccess: async () => {
      setPassword('');
      await pageChanged(queryClient, org, page.slug);
    },
  });
  const errors = save.error ? formErrors(save.error, ['password'] as const) : null;
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {page.passwordProtected
          ? 'A password protects every form of this page.'
          : 'Anyone with the address can see this page.'}
      </Text>
      {!readOnly && (
        <form
          aria-label="Page password"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(password);
          }}
        >
          <Stack gap="sm">
            <PasswordInput
              label={page.passwordProtected ? 'New password' : 'Password'}
              description="At least 8 characters. Stored hashed; nobody can read it back."
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors?.fields.password}
            />
            {errors?.message && (
              <Alert color="red" role="alert" title="Not changed">
                {errors.message}
              </Alert>
            )}
            <Group gap="xs">
              <Button
                type="submit"
                disabled={password.length === 0}
                loading={save.isPending && save.variables !== null}
              >
                {page.passwordProtected ? 'Change password' : 'Set password'}
              </Button>
              {page.passwordProtected && (
                <Button
                  variant="default"
                  onClick={() => save.mutate(null)}
                  loading={save.isPending && save.variables === null}
                >
                  Remove password
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

export function DomainPanel({ page, readOnly }: { page: PageView; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [domain, setDomain] = useState(page.customDomain ?? '');
  const save = useMutation({
    mutationFn: (next: string | null) =>
      call(api.PATCH('/api/v1/pages/{slug}', { params: { path: { slug: page.slug } }, body: { customDomain: next } })),
    onSuccess: async (saved) => {
      setDomain(saved.customDomain ?? '');
      await pageChanged(queryClient, org, page.slug);
    },
  });
  const verify = useMutation({
    mutationFn: () => call(api.POST('/api/v1/pages/{slug}/domain/verify', { params: { path: { slug: page.slug } } })),
    onSettled: () => pageChanged(queryClient, org, page.slug),
  });
  const errors = save.error ? formErrors(save.error, ['customDomain'] as const) : null;
  const proof = page.customDomainVerification;
  return (
    <Stack gap="sm">
      {!readOnly && (
        <form
          aria-label="Custom domain"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(domain.trim() || null);
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Custom domain"
              description="Serves the page at the root of this host once its DNS points at Warden and the TXT record below proves it is yours."
              placeholder="status.example.com"
              value={domain}
              onChange={(e) => setDomain(e.currentTarget.value)}
              error={errors?.fields.customDomain}
            />
            {errors?.message && (
              <Alert color="red" role="alert" title="Not changed">
                {errors.message}
              </Alert>
            )}
            <Group gap="xs">
              <Button
                type="submit"
                loading={save.isPending && save.variables !== null}
                disabled={(domain.trim() || null) === page.customDomain}
              >
                Save domain
              </Button>
              {page.customDomain && (
                <Button
                  variant="default"
                  onClick={() => save.mutate(null)}
                  loading={save.isPending && save.variables === null}
                >
                  Remove domain
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      {page.customDomain && proof && (
        <Stack gap="xs">
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {page.customDomain}
            </Text>
            <TintedBadge color={proof.state === 'verified' ? 'green' : 'yellow'}>
              {proof.state === 'verified' ? 'Verified: serving the page' : 'Not verified: serves nothing yet'}
            </TintedBadge>
          </Group>
          {proof.token ? (
            <DnsRecord record={proof.record} token={proof.token} />
          ) : (
            <Text size="sm">warden.yaml declares this domain: it is verified as written.</Text>
          )}
          <Text size="xs" c="dimmed">
            Last looked up: <Timestamp ms={proof.checkedAt} empty="never" />
            {proof.verifiedAt !== null && (
              <>
                {' · verified '}
                <Timestamp ms={proof.verifiedAt} />
              </>
            )}
          </Text>
          {proof.token && !readOnly && (
            <Group>
              <Button variant="light" onClick={() => verify.mutate()} loading={verify.isPending}>
                Verify now
              </Button>
            </Group>
          )}
          <div role="status" aria-live="polite">
            {verify.isSuccess && (
              <Alert color="green" variant="light">
                Verified: {page.customDomain} serves the page.
              </Alert>
            )}
          </div>
          {verify.error && (
            <Alert color="red" role="alert" title="Not verified">
              {formErrors(verify.error, []).message}
            </Alert>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** The TXT record that proves the domain is the organization's, each part with a copy button. */
function DnsRecord({ record, token }: { record: string; token: string }) {
  return (
    <>
      <Text size="sm">Create this DNS record, then verify:</Text>
      <Table.ScrollContainer minWidth={320}>
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>TXT</Table.Td>
              <Table.Td>
                <Copyable value={record} label="Copy the record name" />
              </Table.Td>
              <Table.Td>
                <Copyable value={token} label="Copy the record value" />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={label}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
