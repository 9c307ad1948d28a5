// Picks the monitors a maintenance window covers directly: a searchable multi-select asking the server
// (GET /api/v1/monitors?q=&limit=), so it works the same with ten monitors or ten thousand. Covered monitors are under
// maintenance wherever they are shown: their alerts are quiet, and their components on the window's page show it.
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { monitorSearchQuery } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';

export function MonitorsPicker({
  value,
  onChange,
  error,
  label = 'Affected monitors',
  description = 'Under maintenance wherever they are shown: no alerts, and their components on this page show maintenance.',
}: {
  value: string[];
  onChange: (keys: string[]) => void;
  error?: string | undefined;
  label?: string;
  description?: string;
}) {
  const [search, setSearch] = useState('');
  // Labels of every monitor seen, so the chosen ones keep their names while the search shows others.
  const labels = useRef(new Map<string, string>());
  const [q] = useDebouncedValue(search, 200);
  const found = useQuery(monitorSearchQuery(useOrganizationKey(), q));
  const data = useMemo(() => {
    const options = (found.data?.monitors ?? []).map((m) => ({ value: m.key, label: `${m.name} (${m.key})` }));
    for (const o of options) labels.current.set(o.value, o.label);
    for (const key of value)
      if (!options.some((o) => o.value === key)) options.push({ value: key, label: labels.current.get(key) ?? key });
    return options;
  }, [found.data, value]);
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length === 0 ? 'None' : undefined}
      searchable
      clearable
      hidePickedOptions
      data={data}
      value={value}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      // The server has filtered already (by name or key, which the label holds either way).
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'No monitor matches'}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
