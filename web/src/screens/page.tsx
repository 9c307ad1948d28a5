// The page editor (/app/pages/{slug}): a page's components in order (drag or keyboard), its draft incidents, settings,
// password and custom domain, its Discord boards, links to its incidents, maintenance and live page. What warden.yaml
// declares is read-only, with its key.
import { Alert, Anchor, Button, Code, Group, Modal, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { api, call } from '../api/client';
import { type ComponentView, componentsQuery } from '../api/components';
import { useOrganizationKey } from '../api/organization';
import { livePageUrl, type PageView, pageDeleted, pageQuery } from '../api/pages';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { ConfirmButton } from '../ui/confirm-button';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { PageDrafts } from './incidents/draft-list';
import { DomainPanel, PasswordPanel } from './page/access-panels';
import { BoardSection } from './page/board-list';
import { BrandingForm } from './page/branding-form';
import { ComponentForm } from './page/component-form';
import { ComponentList } from './page/component-list';
import { SettingsForm } from './page/settings-form';
import { SubscriberSection } from './page/subscriber-list';

const route = getRouteApi('/signed-in/pages/$slug');

export default function PageEditorScreen() {
  const { slug } = route.useParams();
  const org = useOrganizationKey();
  const page = useQuery(pageQuery(org, slug));
  // Asked for with the page, not after it.
  const components = useQuery(componentsQuery(org, slug));
  return (
    <QueryState query={page} loading="Loading the page" failed="Could not load this page">
      {(data) => <PageEditor slug={slug} page={data} components={components} />}
    </QueryState>
  );
}

function PageEditor({
  slug,
  page,
  components,
}: {
  slug: string;
  page: PageView;
  components: UseQueryResult<ComponentView[]>;
}) {
  const { role } = useOrganizationRole();
  const mayEdit = roleAtLeast(role, 'editor');
  const [editing, setEditing] = useState<ComponentView | null>(null);

  const managed = page.managedBy === 'config';
  const readOnly = managed || !mayEdit;
  const groups = [...new Set((components.data ?? []).flatMap((c) => (c.group ? [c.group] : [])))];
  return (
    <>
      <ScreenHeader title={page.title}>
        <ManagedBadge managedBy={page.managedBy} />
        <Button component="a" href={livePageUrl(slug)} target="_blank" rel="noopener" variant="light">
          View live page
          <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
        </Button>
      </ScreenHeader>
      <Stack gap="lg">
        {managed && (
          <Alert color="gray" variant="light" title="Managed by warden.yaml" role="note">
            <Text size="sm">
              warden.yaml declares this page with the key <Code>{slug}</Code>: its settings are read-only here; change
              them in the file and apply it. Components, incidents, maintenance and boards added here are yours to
              change.
            </Text>
          </Alert>
        )}
        <Group gap="md">
          <Text size="sm">
            Address:{' '}
            <Anchor href={livePageUrl(slug)} target="_blank" rel="noopener" underline="always">{`/s/${slug}`}</Anchor>
          </Text>
          <RouterAnchor to="/incidents" search={{ page: slug }} size="sm">
            Incidents of this page
          </RouterAnchor>
          <RouterAnchor to="/maintenance" search={{ page: slug }} size="sm">
            Maintenance of this page
          </RouterAnchor>
        </Group>

        <Section title="Components">
          <QueryState query={components} loading="Loading components" failed="Could not load the components">
            {(list) => <ComponentList slug={slug} components={list} mayEdit={mayEdit} onEdit={setEditing} />}
          </QueryState>
          {mayEdit && (
            <Stack gap="xs" mt="md">
              <Title order={3} size="h5">
                Add a component
              </Title>
              <ComponentForm slug={slug} groups={groups} onDone={() => {}} />
            </Stack>
          )}
        </Section>

        <Section title="Draft incidents">
          <PageDrafts
            slug={slug}
            mayEdit={mayEdit}
            empty={
              page.draftIncidents
                ? `None waiting. A component down for ${page.draftIncidents.afterMin} min gets one${page.draftIncidents.publish === 'auto' ? ', published at once' : ''}.`
                : 'Off: turn on "Prepare draft incidents" in the settings below.'
            }
          />
        </Section>

        <Section title="Discord boards">
          <BoardSection slug={slug} mayEdit={mayEdit} />
        </Section>

        {/* People's addresses: admins only, as the API has it. */}
        {roleAtLeast(role, 'admin') && (
          <Section title="Subscribers">
            <SubscriberSection slug={slug} />
          </Section>
        )}

        <Section title="Settings">
          {/* Keyed by slug, not updatedAt: remounting on its own save's refetch used to wipe the "Saved" message at once. */}
          <SettingsForm key={page.slug} page={page} readOnly={readOnly} />
        </Section>
        <Section title="Branding">
          {/* Kept across its own saves (so "Saved" shows). Images are not part of warden.yaml: an editor uploads them to a page the file manages too. */}
          <BrandingForm key={page.slug} page={page} readOnly={readOnly} mayUpload={mayEdit} />
        </Section>
        <Section title="Password">
          <PasswordPanel page={page} readOnly={readOnly} />
        </Section>
        <Section title="Custom domain">
          {readOnly && !page.customDomain ? (
            <Text size="sm">No custom domain.</Text>
          ) : (
            <DomainPanel key={page.customDomain ?? ''} page={page} readOnly={readOnly} />
          )}
        </Section>
        {!readOnly && <DeletePage slug={slug} title={page.title} />}
      </Stack>

      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Edit ${editing.name}` : ''}
        centered
        size="lg"
      >
        {editing && <ComponentForm slug={slug} component={editing} groups={groups} onDone={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function DeletePage({ slug, title }: { slug: string; title: string }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const navigate = useNavigate();
  return (
    <Group>
      <ConfirmButton
        title={`Delete ${title}?`}
        message="The page goes with its components, incidents and maintenance; its address stops answering."
        confirmLabel="Delete page"
        onConfirm={async () => {
          await call(api.DELETE('/api/v1/pages/{slug}', { params: { path: { slug } } }));
          await pageDeleted(queryClient, org, slug);
          await navigate({ to: '/pages' });
        }}
      >
        Delete page
      </ConfirmButton>
    </Group>
  );
}
