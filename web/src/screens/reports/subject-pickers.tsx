// What a report covers: monitors (searched on the server), components of every page (`<page slug>/<key>`, as the
// report names them) and pages. None chosen: the report covers every monitor.
import { MultiSelect, SimpleGrid } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { componentsQuery } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { pagesQuery } from '../../api/pages';
import { MonitorsPicker } from '../maintenance/monitors-picker';

export interface Subjects {
  monitors: string[];
  components: string[];
  pages: string[];
}

export const NO_SUBJECTS: Subjects = { monitors: [], components: [], pages: [] };

export function SubjectPickers({
  value,
  onChange,
  errors,
}: {
  value: Subjects;
  onChange: (next: Subjects) => void;
  errors: Partial<Record<keyof Subjects, string | undefined>>;
}) {
  const org = useOrganizationKey();
  const pages = useQuery({ ...pagesQuery(org), staleTime: 60_000 });
  const list = pages.data?.pages ?? [];
  const components = useQueries({
    queries: list.map((p) => ({ ...componentsQuery(org, p.slug), staleTime: 60_000 })),
  });
  const componentGroups = list
    .map((p, i) => ({
      group: p.title,
      items: (components[i]?.data ?? []).map((c) => ({ value: `${p.slug}/${c.key}`, label: `${c.name} (${p.title})` })),
    }))
    .filter((g) => g.items.length > 0);
  const known = new Set(componentGroups.flatMap((g) => g.items.map((i) => i.value)));
  const orphans = value.components.filter((c) => !known.has(c)).map((c) => ({ value: c, label: c }));
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
      <MonitorsPicker
        label="Monitors"
        description="None chosen anywhere: every monitor."
        value={value.monitors}
        onChange={(monitors) => onChange({ ...value, monitors })}
        error={errors.monitors}
      />
      <MultiSelect
        label="Components"
        description="A component's monitor, with the page's incidents and maintenance."
        placeholder={value.components.length === 0 ? 'None' : undefined}
        searchable
        clearable
        hidePickedOptions
        data={orphans.length > 0 ? [...componentGroups, { group: 'Other', items: orphans }] : componentGroups}
        value={value.components}
        onChange={(chosen) => onChange({ ...value, components: chosen })}
        nothingFoundMessage="No component matches"
        error={errors.components}
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label="Pages"
        description="Every monitor a page's components show, pooled."
        placeholder={value.pages.length === 0 ? 'None' : undefined}
        searchable
        clearable
        hidePickedOptions
        data={[...new Set([...list.map((p) => p.slug), ...value.pages])].map((slug) => ({
          value: slug,
          label: list.find((p) => p.slug === slug)?.title ?? slug,
        }))}
        value={value.pages}
        onChange={(chosen) => onChange({ ...value, pages: chosen })}
        nothingFoundMessage="No page matches"
        error={errors.pages}
        comboboxProps={{ withinPortal: true }}
      />
    </SimpleGrid>
  );
}
