// Draft incidents waiting for an operator: each one's component, since when it is down and the words it would publish,
// with Publish (one click: the incident is public and told to subscribers) and Discard (after a confirmation) for
// editors. Never public before that click (docs/states.md, "Draft incidents").
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { type IncidentDraft, incidentDraftsQuery, incidentsChanged } from '../../api/incidents';
import { useOrganizationKey } from '../../api/organization';
import { pagesQuery } from '../../api/pages';
import { ConfirmButton } from '../../ui/confirm-button';
import { formErrors } from '../../ui/form-errors';
import { QueryState } from '../../ui/query-state';
import { Timestamp } from '../../ui/timestamp';
import { TintedBadge } from '../page/tinted-badge';

/** One page's waiting drafts (the page editor), or `empty` when there are none. */
export function PageDrafts({ slug, mayEdit, empty }: { slug: string; mayEdit: boolean; empty: string }) {
  const drafts = useQuery(incidentDraftsQuery(useOrganizationKey(), slug));
  return (
    <QueryState
      query={drafts}
      loading="Loading draft incidents"
      failed="Could not load the draft incidents"
      isEmpty={(list) => list.length === 0}
      empty={
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      }
    >
      {(list) => <DraftCards slug={slug} drafts={list} mayEdit={mayEdit} />}
    </QueryState>
  );
}

/** The waiting drafts of one page (`slug`) or of every page, as a section shown only while there are some. */
export function WaitingDrafts({ slug, mayEdit }: { slug: string | undefined; mayEdit: boolean }) {
  const org = useOrganizationKey();
  const pages = useQuery({ ...pagesQuery(org), enabled: slug === undefined });
  const slugs = slug !== undefined ? [slug] : (pages.data?.pages ?? []).map((p) => p.slug);
  const titles = new Map((pages.data?.pages ?? []).map((p) => [p.slug, p.title]));
  const lists = useQueries({ queries: slugs.map((s) => incidentDraftsQuery(org, s)) });
  const waiting = slugs.flatMap((s, i) => (lists[i]?.data ?? []).map((draft) => ({ slug: s, draft })));
  if (waiting.length === 0) return null;
  return (
    <section aria-label="Draft incidents">
      <Title order={2} size="h4" mb={4}>
        Draft incidents
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Prepared for components down a while; nobody sees them until one is published.
      </Text>
      <Stack gap="sm">
        {waiting.map(({ slug: s, draft }) => (
          <DraftCard key={draft.id} slug={s} draft={draft} mayEdit={mayEdit} pageTitle={titles.get(s)} />
        ))}
      </Stack>
    </section>
  );
}

function DraftCards({ slug, drafts, mayEdit }: { slug: string; drafts: IncidentDraft[]; mayEdit: boolean }) {
  return (
    <Stack gap="sm">
      {drafts.map((draft) => (
        <DraftCard key={draft.id} slug={slug} draft={draft} mayEdit={mayEdit} />
      ))}
    </Stack>
  );
}

function DraftCard({
  slug,
  draft,
  mayEdit,
  pageTitle,
}: {
  slug: string;
  draft: IncidentDraft;
  mayEdit: boolean;
  pageTitle?: string | undefined;
}) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const path = { slug, id: draft.id };
  const publish = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/pages/{slug}/incident-drafts/{id}/publish', { params: { path }, body: {} })),
    onSuccess: () => incidentsChanged(queryClient, org),
  });
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={`Draft: ${draft.title}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">
            {draft.title}
          </Title>
          <TintedBadge color="gray">Draft, not public</TintedBadge>
        </Group>
        <Text size="sm" c="dimmed">
          {pageTitle && `${pageTitle} · `}Component <code>{draft.component}</code> down since{' '}
          <Timestamp ms={draft.downSince} />
        </Text>
        <Text size="sm">{draft.message}</Text>
        {publish.error && (
          <Alert color="red" role="alert" title="Not published">
            {formErrors(publish.error, []).message}
          </Alert>
        )}
        {mayEdit && (
          <Group gap="xs">
            <Button
              size="xs"
              aria-label={`Publish ${draft.title}`}
              loading={publish.isPending}
              onClick={() => publish.mutate()}
            >
              Publish
            </Button>
            <ConfirmButton
              variant="default"
              color="gray"
              aria-label={`Discard ${draft.title}`}
              title={`Discard “${draft.title}”?`}
              message="Nothing is published for this outage; the component's next outage gets a new draft."
              confirmLabel="Discard draft"
              onConfirm={async () => {
                await call(api.DELETE('/api/v1/pages/{slug}/incident-drafts/{id}', { params: { path } }));
                await incidentsChanged(queryClient, org);
              }}
            >
              Discard
            </ConfirmButton>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
