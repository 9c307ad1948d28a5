// "Import from a panel" (/app/panels): a Pterodactyl or Pelican panel's address and client API key, Discover → the
// servers it proposes (docs/panels.md), some ticked, a page and the options, Apply → what each server got. The key
// lives in this screen's state only: it is never cached, stored or put in the URL, and is gone when the screen is left.
import { Alert, Button, Group, Paper, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, call } from '../api/client';
import { monitorTypesQuery, useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import { pagesQuery } from '../api/pages';
import { type PanelApplyBody, type PanelDiscovery, panelApplied } from '../api/panels';
import { formErrors, noFormErrors } from '../ui/form-errors';
import { FormMessage } from '../ui/form-message';
import { ScreenHeader } from '../ui/screen-header';
import { APPLY_OPTIONS, initialOptions, optionsBody } from './panels/apply-options';
import { ApplyReport } from './panels/apply-report';
import { ServersSection } from './panels/servers-section';

const FIELDS = ['panelUrl', 'apiKey', 'allServers', 'page', 'servers', ...APPLY_OPTIONS.map((o) => o.name)];

export default function PanelsScreen() {
  const canEdit = useCanEditMonitors();
  return (
    <>
      <ScreenHeader title="Import from a panel" />
      <Stack gap="lg" maw={960}>
        <Text size="sm" c="dimmed">
          Point Warden at a Pterodactyl or Pelican panel: it proposes a monitor and a status page component for every
          server the key can see. Applying again later re-syncs them (renamed servers, moved allocations).
        </Text>
        {canEdit ? (
          <PanelImport />
        ) : (
          <Alert color="gray" variant="light" title="Read-only">
            Your role in this organization can view monitors but not create them.
          </Alert>
        )}
      </Stack>
    </>
  );
}

function PanelImport() {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const pages = useQuery(pagesQuery(org));
  const types = useQuery(monitorTypesQuery);
  const typeLabels = useMemo(() => new Map((types.data?.types ?? []).map((t) => [t.id, t.label])), [types.data]);
  const [panelUrl, setPanelUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [allServers, setAllServers] = useState(false);
  const [discovery, setDiscovery] = useState<PanelDiscovery | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [page, setPage] = useState('');
  const [options, setOptions] = useState(initialOptions);
  const [problem, setProblem] = useState<unknown>(null);
  const errors = problem ? formErrors(problem, FIELDS) : noFormErrors<string>();
  const chosenPage = page || pages.data?.pages[0]?.slug || '';
  const connection = () => ({ panelUrl: panelUrl.trim(), apiKey: apiKey.trim(), allServers });

  // Both read the key from the screen's state, not from mutation variables: TanStack Query keeps variables in its cache.
  const discover = useMutation({
    mutationFn: () => call(api.POST('/api/v1/panels/discover', { body: connection() })),
    onMutate: () => setProblem(null),
    onError: setProblem,
    onSuccess: (found) => {
      setDiscovery(found);
      setSelected(new Set(found.proposals.map((p) => p.identifier)));
      apply.reset();
    },
  });
  const apply = useMutation({
    mutationFn: () => {
      const body = { ...connection(), page: chosenPage, servers: [...selected], ...optionsBody(options) };
      return call(api.POST('/api/v1/panels/apply', { body: body as PanelApplyBody }));
    },
    onMutate: () => setProblem(null),
    onError: setProblem,
    onSuccess: () => panelApplied(queryClient, org, chosenPage),
  });

  const submitDiscover = (event: FormEvent) => {
    event.preventDefault();
    discover.mutate();
  };
  const submitApply = (event: FormEvent) => {
    event.preventDefault();
    apply.mutate();
  };

  return (
    <>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="panel-connection">
        <Title order={2} size="h4" id="panel-connection" mb="sm">
          Panel
        </Title>
        <form onSubmit={submitDiscover} noValidate aria-label="Discover the servers of a panel">
          <Stack gap="sm" maw={560}>
            <TextInput
              id="panel-url"
              label="Panel URL"
              description="The address you open the panel at, e.g. https://panel.example.com."
              required
              type="url"
              value={panelUrl}
              onChange={(e) => setPanelUrl(e.currentTarget.value)}
              error={errors.fields['panelUrl']}
            />
            <PasswordInput
              id="panel-api-key"
              label="Client API key"
              description="A key (ptlc_…) from Account → API Credentials of a user who sees the servers. Used for these requests only; the screen forgets it when you leave."
              required
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(e) => setApiKey(e.currentTarget.value)}
              error={errors.fields['apiKey']}
            />
            <Switch
              id="panel-all-servers"
              label="All servers (needs a root admin's key)"
              description="Every server of the panel, not only the key's own. The panel lists none for any other key, and an empty listing never removes anything."
              checked={allServers}
              onChange={(e) => setAllServers(e.currentTarget.checked)}
              error={errors.fields['allServers']}
            />
            {!apply.isError && <FormMessage message={errors.message} />}
            <Group>
              <Button type="submit" loading={discover.isPending}>
                Discover
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {discovery && (
        <ServersSection
          discovery={discovery}
          selected={selected}
          onSelect={setSelected}
          typeLabels={typeLabels}
          pages={pages}
          chosenPage={chosenPage}
          onPage={setPage}
          options={options}
          onOption={(name, value) => setOptions((prev) => ({ ...prev, [name]: value }))}
          errors={errors}
          message={apply.isError ? errors.message : null}
          applying={apply.isPending}
          onApply={submitApply}
        />
      )}

      {apply.data && <ApplyReport report={apply.data} page={chosenPage} />}
    </>
  );
}
