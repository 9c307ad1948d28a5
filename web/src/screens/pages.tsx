// The Pages screen (/app/pages): the organization's status pages with what protects and serves them, and a new page.
import { Alert, Anchor, Button, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../api/client';
import { useOrganizationKey } from '../api/organization';
import { livePageUrl, type PageView, pageCreated, pagesQuery } from '../api/pages';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { formErrors } from '../ui/form-errors';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { EmptyState } from '../ui/states';
import { TintedBadge } from './page/tinted-badge';

export default function PagesScreen() {
  const pages = useQuery(pagesQuery(useOrganizationKey()));
  const { role } = useOrganizationRole();
  const mayEdit = roleAtLeast(role, 'editor');
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <ScreenHeader title="Pages">{mayEdit && <Button onClick={open}>New page</Button>}</ScreenHeader>
      <QueryState
        query={pages}
        loading="Loading pages"
        failed="Could not load the pages"
        isEmpty={(data) => data.pages.length === 0}
        empty={
          <EmptyState
            title="No pages yet"
            description="A status page shows your monitors to players and visitors."
            action={mayEdit && <Button onClick={open}>New page</Button>}
          />
        }
      >
        {(data) => <PageTable pages={data.pages} />}
      </QueryState>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={close} title="New page" centered>
        <NewPageForm onCancel={close} />
      </Modal>
    </>
  );
}

function PageTable({ pages }: { pages: PageView[] }) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Caption>
          <VisuallyHidden>Status pages</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Page</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Address
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Access
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pages.map((page) => (
            <Table.Tr key={page.id}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <RouterAnchor to="/pages/$slug" params={{ slug: page.slug }} fw={500}>
                    {page.title}
                  </RouterAnchor>
                  <ManagedBadge managedBy={page.managedBy} />
                </Group>
                {page.description && (
                  <Text size="sm" c="dimmed" lineClamp={1}>
                    {page.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Stack gap={2}>
                  <Anchor href={livePageUrl(page.slug)} target="_blank" rel="noopener" size="sm">
                    /s/{page.slug}
                    <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
                  </Anchor>
                  {page.customDomain && (
                    <Text size="sm">
                      {page.customDomain}{' '}
                      <TintedBadge color={page.customDomainVerification?.state === 'verified' ? 'green' : 'yellow'}>
                        {page.customDomainVerification?.state ?? 'unverified'}
                      </TintedBadge>
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{page.passwordProtected ? 'Password' : 'Public'}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const FIELDS = ['slug', 'title'] as const;

function NewPageForm({ onCancel }: { onCancel: () => void }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/pages', { body: { slug: slug.trim(), title: title.trim() } })),
    onSuccess: async (page) => {
      await pageCreated(queryClient, org);
      await navigate({ to: '/pages/$slug', params: { slug: page.slug } });
    },
  });
  const errors = create.error ? formErrors(create.error, FIELDS) : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.fields.title}
          data-autofocus
        />
        <TextInput
          label="Slug"
          description="The page's address: /s/<slug>. Lowercase letters, digits, - and _; it cannot change later."
          required
          value={slug}
          onChange={(e) => setSlug(e.currentTarget.value)}
          error={errors?.fields.slug}
        />
        {errors?.message && (
          <Alert color="red" role="alert" title="Not created">
            {errors.message}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create page
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
