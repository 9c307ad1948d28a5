// Picks the monitor a component shows (and a monitor's parent): a searchable select asking the server
// (GET /api/v1/monitors?q=&limit=), so it works the same with ten monitors or ten thousand.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { monitorSearchQuery } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';

export function MonitorPicker({
  value,
  onChange,
  error,
  disabled,
  id,
  label = 'Monitor',
  description = 'The monitor whose state the component shows; type to search by name or key.',
  placeholder = 'No monitor',
  exclude,
}: {
  value: string | null;
  onChange: (key: string | null) => void;
  error?: string | undefined;
  disabled?: boolean;
  id?: string;
  label?: string;
  description?: string;
  placeholder?: string;
  /** A key never offered (a monitor cannot depend on itself). */
  exclude?: string | undefined;
}) {
  const [search, setSearch] = useState('');
  // Labels of every monitor seen, so the chosen one keeps its name; once chosen, the box shows that label, which is
  // no search.
  const labels = useRef(new Map<string, string>());
  const [debounced] = useDebouncedValue(search, 200);
  const q = value !== null && debounced === labels.current.get(value) ? '' : debounced;
  const found = useQuery(monitorSearchQuery(useOrganizationKey(), q));
  const data = useMemo(() => {
    const options = (found.data?.monitors ?? [])
      .filter((m) => m.key !== exclude)
      .map((m) => ({ value: m.key, label: `${m.name} (${m.key})` }));
    for (const o of options) labels.current.set(o.value, o.label);
    // The chosen monitor stays an option while the search shows others, so the field keeps its label.
    if (value && !options.some((o) => o.value === value))
      options.unshift({ value, label: labels.current.get(value) ?? value });
    return options;
  }, [found.data, value, exclude]);
  return (
    <Select
      id={id}
      label={label}
      description={description}
      placeholder={placeholder}
      searchable
      clearable
      disabled={disabled}
      data={data}
      value={value}
      onChange={(key) => onChange(key)}
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
