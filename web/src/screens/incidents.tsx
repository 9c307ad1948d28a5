// The Incidents screen (/app/incidents, ?page= for one page): open and recently resolved incidents with their timeline;
// the draft incidents waiting to be published; open one, post updates (status, impact, message), resolve. Each write
// shows on the public page at once.
import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { incidentsQuery } from '../api/incidents';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { WaitingDrafts } from './incidents/draft-list';
import { IncidentCard } from './incidents/incident-card';
import { NewIncidentForm } from './incidents/incident-forms';
import { PageSelect } from './page/page-filter';

const route = getRouteApi('/signed-in/incidents');

export default function IncidentsScreen() {
  const { page } = route.useSearch();
  const navigate = route.useNavigate();
  const { role } = useOrganizationRole();
  const mayEdit = roleAtLeast(role, 'editor');
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <ScreenHeader title="Incidents">{mayEdit && <Button onClick={open}>Open an incident</Button>}</ScreenHeader>
      <Stack gap="lg">
        <PageSelect
          label="Show the incidents of"
          clearable
          value={page}
          onChange={(slug) => void navigate({ search: slug ? { page: slug } : {}, replace: true })}
        />
        <WaitingDrafts slug={page} mayEdit={mayEdit} />
        <IncidentList title="Open" slug={page} state="open" mayEdit={mayEdit} empty="No open incident: all is well." />
        <IncidentList
          title="Recently resolved"
          slug={page}
          state="resolved"
          mayEdit={mayEdit}
          empty="Nothing resolved yet."
        />
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={opened}
        onClose={close}
        title="Open an incident"
        centered
        size="lg"
      >
        <NewIncidentForm initialPage={page} onDone={close} />
      </Modal>
    </>
  );
}

function IncidentList({
  title,
  slug,
  state,
  mayEdit,
  empty,
}: {
  title: string;
  slug: string | undefined;
  state: 'open' | 'resolved';
  mayEdit: boolean;
  empty: string;
}) {
  const list = useQuery(incidentsQuery(useOrganizationKey(), slug, state));
  return (
    <section aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {list.data && (
          <Text size="sm" c="dimmed">
            {list.data.length} incident{list.data.length === 1 ? '' : 's'}
          </Text>
        )}
      </Group>
      <QueryState
        query={list}
        loading="Loading incidents"
        failed={`Could not load the ${title.toLowerCase()} incidents`}
        isEmpty={(incidents) => incidents.length === 0}
        empty={
          <Text c="dimmed" size="sm">
            {empty}
          </Text>
        }
      >
        {(incidents) => (
          <Stack gap="sm">
            {incidents.map((incident) => (
              <IncidentCard key={incident.id} incident={incident} mayEdit={mayEdit} showPage={slug === undefined} />
            ))}
          </Stack>
        )}
      </QueryState>
    </section>
  );
}
