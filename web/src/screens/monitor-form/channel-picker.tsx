// A monitor's Notify field: a pick of the organization's notification channels by name (their keys are what the API
// stores), instead of keys typed by hand. A key no channel has any longer (deleted since) stays visible to remove.
import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { channelsQuery } from '../../api/notification-channels';
import { useOrganizationKey } from '../../api/organization';
import type { FieldValue, FormField } from './schema-form';

export function ChannelPicker({
  field,
  value,
  onChange,
  error,
  path,
}: {
  field: FormField;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  error: string | undefined;
  path: string;
}) {
  const org = useOrganizationKey();
  const channels = useQuery({ ...channelsQuery(org), staleTime: 60_000 });
  const picked = Array.isArray(value) ? value : [];
  const known = channels.data?.channels ?? [];
  const data = [
    ...known.map((c) => ({ value: c.key, label: `${c.name} (${c.key})` })),
    ...picked
      .filter((key) => !known.some((c) => c.key === key))
      .map((key) => ({ value: key, label: `${key} (no such channel)` })),
  ];
  const placeholder = channels.isPending
    ? 'Loading channels…'
    : known.length === 0
      ? 'No channels yet: create one under Notifications'
      : picked.length === 0
        ? 'Choose channels'
        : undefined;
  return (
    <MultiSelect
      id={`field-${path}`}
      label={field.label}
      description="The channels that get this monitor's events. A channel a monitor names gets what names it (and its own scope), no longer everything."
      error={error ?? (channels.isError ? 'Could not load the channels' : undefined)}
      data={data}
      value={picked}
      onChange={onChange}
      placeholder={placeholder}
      nothingFoundMessage="No channel by that name"
      searchable
      clearable
      hidePickedOptions
    />
  );
}
