// The servers a panel's discovery proposed, to tick, with the page their components go on and the apply's options.
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { PageView } from '../../api/pages';
import type { PanelDiscovery } from '../../api/panels';
import type { FormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { RouterAnchor } from '../../ui/router-link';
import { ApplyOptionFields, type OptionValues } from './apply-options';
import { ProposalTable } from './proposal-table';

export function ServersSection({
  discovery,
  selected,
  onSelect,
  typeLabels,
  pages,
  chosenPage,
  onPage,
  options,
  onOption,
  errors,
  message,
  applying,
  onApply,
}: {
  discovery: PanelDiscovery;
  selected: ReadonlySet<string>;
  onSelect: (next: Set<string>) => void;
  typeLabels: ReadonlyMap<string, string>;
  pages: UseQueryResult<{ pages: PageView[] }>;
  chosenPage: string;
  onPage: (slug: string) => void;
  options: OptionValues;
  onOption: (name: string, value: boolean | string) => void;
  errors: FormErrors<string>;
  message: string | null;
  applying: boolean;
  onApply: (event: FormEvent) => void;
}) {
  const pageChoices = (pages.data?.pages ?? []).map((p) => ({ value: p.slug, label: `${p.title} (${p.slug})` }));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="panel-proposals">
      <Title order={2} size="h4" id="panel-proposals" mb="sm">
        Servers found
      </Title>
      {discovery.proposals.length === 0 ? (
        <Text size="sm">The key sees no servers on this panel.</Text>
      ) : (
        <form onSubmit={onApply} noValidate aria-label="Apply the servers">
          <Stack gap="sm">
            {discovery.truncated && (
              <Alert color="yellow" variant="light">
                The key sees more than 500 servers: only the first 500 are listed.
              </Alert>
            )}
            <ProposalTable
              proposals={discovery.proposals}
              selected={selected}
              onSelect={onSelect}
              typeLabels={typeLabels}
            />
            {errors.fields['servers'] && (
              <Text size="sm" c="var(--mantine-color-error)" role="alert">
                {errors.fields['servers']}
              </Text>
            )}
            <Stack gap="sm" maw={560}>
              {pageChoices.length === 0 && pages.isSuccess ? (
                <Alert color="gray" variant="light" title="No status page yet">
                  The components go on a page: <RouterAnchor to="/pages">create one</RouterAnchor> first.
                </Alert>
              ) : (
                <NativeSelect
                  id="panel-page"
                  label="Status page"
                  description="The page the servers’ components go on."
                  required
                  data={pageChoices}
                  value={chosenPage}
                  onChange={(e) => onPage(e.currentTarget.value)}
                  error={errors.fields['page']}
                />
              )}
              <ApplyOptionFields values={options} onChange={onOption} errors={errors} />
              <FormMessage message={message} />
              <Group>
                <Button type="submit" loading={applying} disabled={selected.size === 0 || !chosenPage}>
                  {`Apply ${selected.size} ${selected.size === 1 ? 'server' : 'servers'}`}
                </Button>
              </Group>
            </Stack>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
