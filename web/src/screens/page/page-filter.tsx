// The page select of the Incidents and Maintenance screens (?page=), and the components picker of their forms and boards'.
import { MultiSelect, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { componentsQuery } from '../../api/components';
import { useOrganizationKey } from '../../api/organization';
import { pagesQuery } from '../../api/pages';

export function PageSelect({
  value,
  onChange,
  label = 'Page',
  clearable = false,
  required = false,
  error,
}: {
  value: string | undefined;
  onChange: (slug: string | undefined) => void;
  label?: string;
  clearable?: boolean;
  required?: boolean;
  error?: string | undefined;
}) {
  const pages = useQuery(pagesQuery(useOrganizationKey()));
  return (
    <Select
      label={label}
      placeholder={clearable ? 'All pages' : 'Choose a page'}
      clearable={clearable}
      required={required}
      allowDeselect={clearable}
      searchable
      data={(pages.data?.pages ?? []).map((p) => ({ value: p.slug, label: `${p.title} (/s/${p.slug})` }))}
      value={value ?? null}
      onChange={(slug) => onChange(slug ?? undefined)}
      error={error}
      maw={360}
    />
  );
}

/** Components of a page, by key (what incidents, maintenance and boards name them by). */
export function ComponentsSelect({
  slug,
  value,
  onChange,
  label,
  description,
  none = 'None',
  error,
}: {
  slug: string | undefined;
  value: string[];
  onChange: (keys: string[]) => void;
  label: string;
  description?: string;
  /** What an empty choice means, shown as the placeholder. */
  none?: string;
  error?: string | undefined;
}) {
  const components = useQuery({ ...componentsQuery(useOrganizationKey(), slug ?? ''), enabled: slug !== undefined });
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length === 0 ? (slug ? none : 'Choose a page first') : undefined}
      disabled={!slug}
      searchable
      data={[...new Set([...(components.data ?? []).map((c) => c.key), ...value])].map((key) => ({
        value: key,
        label: components.data?.find((c) => c.key === key)?.name ?? key,
      }))}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}
