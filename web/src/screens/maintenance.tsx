// The Maintenance screen (/app/maintenance, ?page= for one page): windows in progress, upcoming and past (30 days),
// with times in the browser's zone, named; schedule, change and cancel them.
import { Button, Code, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { api, call } from '../api/client';
import { maintenanceChanged, maintenanceQuery, type OrganizationMaintenance } from '../api/maintenance';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { ConfirmButton } from '../ui/confirm-button';
import { ManagedBadge } from '../ui/managed-badge';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { browserTimeZone, formatRange } from './maintenance/local-time';
import { MaintenanceForm } from './maintenance/maintenance-form';
import { PageSelect } from './page/page-filter';

const route = getRouteApi('/signed-in/maintenance');
const PAST_DAYS = 30;

export default function MaintenanceScreen() {
  const { page } = route.useSearch();
  const navigate = route.useNavigate();
  const { role } = useOrganizationRole();
  const mayEdit = roleAtLeast(role, 'editor');
  const [scheduling, { open, close }] = useDisclosure(false);
  // Fixed for the screen's life: the query key stays the same, and the lists split at the time it was read.
  const [now] = useState(() => Date.now());
  const list = useQuery(maintenanceQuery(useOrganizationKey(), page, now - PAST_DAYS * 86_400_000));
  const sections = useMemo(() => {
    const at = Date.now();
    const all = list.data ?? [];
    // A recurring window is placed by its occurrence in progress or its next one; without one ahead, it is past.
    const times = (m: OrganizationMaintenance) => (m.recurrence ? (m.next ?? { startsAt: 0, endsAt: 0 }) : m);
    return [
      {
        title: 'In progress',
        items: all.filter((m) => times(m).startsAt <= at && times(m).endsAt > at),
        empty: 'Nothing in progress.',
      },
      { title: 'Upcoming', items: all.filter((m) => times(m).startsAt > at), empty: 'Nothing scheduled.' },
      { title: `Past ${PAST_DAYS} days`, items: all.filter((m) => times(m).endsAt <= at).reverse(), empty: 'None.' },
    ];
  }, [list.data]);
  return (
    <>
      <ScreenHeader title="Maintenance">{mayEdit && <Button onClick={open}>Schedule maintenance</Button>}</ScreenHeader>
      <Stack gap="lg">
        <PageSelect
          label="Show the maintenance of"
          clearable
          value={page}
          onChange={(slug) => void navigate({ search: slug ? { page: slug } : {}, replace: true })}
        />
        <Text size="sm" c="dimmed">
          Times are in your time zone, {browserTimeZone()}.
        </Text>
        <QueryState query={list} loading="Loading maintenance" failed="Could not load the maintenance windows">
          {() =>
            sections.map((section) => (
              <section key={section.title} aria-label={section.title}>
                <Title order={2} size="h4" mb="xs">
                  {section.title}
                </Title>
                {section.items.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {section.empty}
                  </Text>
                ) : (
                  <Stack gap="sm">
                    {section.items.map((item) => (
                      <WindowCard key={item.id} item={item} mayEdit={mayEdit} showPage={page === undefined} />
                    ))}
                  </Stack>
                )}
              </section>
            ))
          }
        </QueryState>
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={scheduling}
        onClose={close}
        title="Schedule maintenance"
        centered
        size="lg"
      >
        <MaintenanceForm initialPage={page} onDone={close} />
      </Modal>
    </>
  );
}

function WindowCard({
  item,
  mayEdit,
  showPage,
}: {
  item: OrganizationMaintenance;
  mayEdit: boolean;
  showPage: boolean;
}) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [editing, { open, close }] = useDisclosure(false);
  const managed = item.managedBy === 'config';
  const upcoming = item.recurrence ? item.next !== null : item.startsAt > Date.now();
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={item.title}>
      <Stack gap={4}>
        <Group gap="xs">
          <Title order={3} size="h5">
            {item.title}
          </Title>
          <ManagedBadge managedBy={item.managedBy} />
          {managed && item.key && (
            <Text size="xs" c="dimmed">
              key <Code>{item.key}</Code>
            </Text>
          )}
        </Group>
        {item.repeats ? (
          <Text size="sm" title={item.recurrence?.map((r) => r.rrule ?? r.cron).join('; ')}>
            Repeats: {item.repeats}
            {item.next ? ` · next ${formatRange(item.next.startsAt, item.next.endsAt)}` : ' · no occurrence ahead'}
          </Text>
        ) : (
          <Text size="sm">{formatRange(item.startsAt, item.endsAt)}</Text>
        )}
        <Text size="sm" c="dimmed">
          {showPage && (
            <>
              <RouterAnchor to="/pages/$slug" params={{ slug: item.page.slug }} size="sm" underline="always">
                {item.page.title}
              </RouterAnchor>
              {' · '}
            </>
          )}
          {coverage(item)}
        </Text>
        {item.description && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {item.description}
          </Text>
        )}
        {mayEdit && !managed && (
          <Group gap="xs" mt={4}>
            <Button size="xs" variant="default" onClick={open} aria-label={`Edit ${item.title}`}>
              Edit
            </Button>
            <ConfirmButton
              aria-label={`${upcoming ? 'Cancel' : 'Delete'} ${item.title}`}
              title={`${upcoming ? 'Cancel' : 'Delete'} ${item.title}?`}
              message="The window leaves the page and its history."
              confirmLabel={upcoming ? 'Cancel window' : 'Delete window'}
              onConfirm={async () => {
                await call(
                  api.DELETE('/api/v1/pages/{slug}/maintenance/{id}', {
                    params: { path: { slug: item.page.slug, id: item.id } },
                  }),
                );
                await maintenanceChanged(queryClient, org);
              }}
            >
              {upcoming ? 'Cancel' : 'Delete'}
            </ConfirmButton>
          </Group>
        )}
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={editing}
        onClose={close}
        title={`Edit ${item.title}`}
        centered
        size="lg"
      >
        <MaintenanceForm existing={item} onDone={close} />
      </Modal>
    </Paper>
  );
}

/** What a window covers: components of its page, monitors wherever shown, or (neither) the whole page. */
function coverage(item: OrganizationMaintenance): string {
  const parts = [
    ...(item.components.length > 0 ? [`components ${item.components.join(', ')}`] : []),
    ...(item.monitors.length > 0 ? [`monitors ${item.monitors.join(', ')}`] : []),
  ];
  return parts.length > 0 ? `covers ${parts.join(' and ')}` : 'covers the whole page';
}
