// Which organization the dashboard shows: a select when the user belongs to several; switching refetches everything.
import { Select, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { chooseOrganization } from '../api/organization';
import type { Me } from '../api/types';

export function OrganizationSwitcher({ me, current }: { me: Me; current: string | undefined }) {
  const queryClient = useQueryClient();
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
        chooseOrganization(key);
        // Another organization's objects: nothing cached may show (reset refetches what is on screen), and the filters
        // of this one (its pages, relays) mean nothing there.
        void queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
        void navigate({ to: '/monitors', search: {} });
      }}
    />
  );
}
