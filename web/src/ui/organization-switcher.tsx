// Which organization the dashboard shows: a select when the user belongs to several. Switching changes the key of
// every query on screen (api/query-keys.ts), so each reads the other organization's answer; nothing needs a reset.
import { Select, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { switchOrganization } from '../api/organization';
import type { Me } from '../api/types';

export function OrganizationSwitcher({ me, current }: { me: Me; current: string | undefined }) {
  const navigate = useNavigate();
  if (me.organizations.length <= 1)
    return (
      <Text fw={600} size="sm" truncate visibleFrom="xs">
        {me.organizations[0]?.name ?? 'No organization'}
      </Text>
    );
  return (
    <Select
      aria-label="Organization"
      size="sm"
      w={200}
      allowDeselect={false}
      data={me.organizations.map((o) => ({ value: o.key, label: o.name }))}
      value={current ?? null}
      onChange={(key) => {
        if (!key || key === current) return;
        switchOrganization(key);
        // The filters of this one (its pages, relays) mean nothing there.
        void navigate({ to: '/monitors', search: {} });
      }}
    />
  );
}
