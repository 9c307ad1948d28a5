// An audit entry's object: its label at the time, and a link to where it is shown when it still exists (a monitor's
// own screen, or the list screen of its kind). Whether it exists comes from the list of its kind, fetched once per kind.
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { currentOrganization } from '../../api/organization';
import type { components } from '../../api/schema';
import { meQuery } from '../../api/session';
import { RouterAnchor } from '../../ui/router-link';

type AuditObjectView = components['schemas']['AuditEntry']['object'];

type ListScreen = '/pages' | '/relays' | '/notifications' | '/settings/api-keys' | '/settings/members' | '/settings/organization';

/** For each kind with a screen: where it is shown, and the ids that exist now. */
const KINDS: Record<string, { screen: ListScreen | '/monitors/$monitorId'; ids: () => Promise<string[]> }> = {
  monitor: { screen: '/monitors/$monitorId', ids: async () => (await call(api.GET('/api/v1/monitors'))).monitors.map((m) => m.id) },
  page: { screen: '/pages', ids: async () => (await call(api.GET('/api/v1/pages'))).pages.map((p) => p.id) },
  relay: { screen: '/relays', ids: async () => (await call(api.GET('/api/v1/relays'))).relays.map((r) => r.id) },
  'notification-channel': { screen: '/notifications', ids: async () => (await call(api.GET('/api/v1/notification-channels'))).channels.map((c) => c.id) },
  'api-key': { screen: '/settings/api-keys', ids: async () => (await call(api.GET('/api/v1/api-keys'))).apiKeys.filter((k) => k.revokedAt === null).map((k) => k.id) },
  member: { screen: '/settings/members', ids: async () => (await call(api.GET('/api/v1/members'))).members.map((m) => m.id) },
  invitation: { screen: '/settings/members', ids: async () => (await call(api.GET('/api/v1/invitations'))).invitations.map((i) => i.id) },
  organization: { screen: '/settings/organization', ids: async () => [(await call(api.GET('/api/v1/organization'))).id] },
};

export function AuditObject({ object }: { object: AuditObjectView }) {
  const kind = KINDS[object.type];
  const organization = useQuery({ ...meQuery, select: (me) => currentOrganization(me)?.key });
  const existing = useQuery({
    queryKey: ['audit', 'existing', organization.data, object.type],
    queryFn: kind?.ids ?? (() => Promise.resolve([])),
    enabled: kind !== undefined && object.id !== null,
    staleTime: 30_000,
    retry: false,
  });
  const label = object.label ?? object.id ?? '–';
  const text = (
    <Text size="xs" c="dimmed" component="span">
      {object.type}{' '}
    </Text>
  );
  if (!kind || object.id === null || !existing.data?.includes(object.id))
    return (
      <Text size="sm">
        {text}
        {label}
      </Text>
    );
  return (
    <Text size="sm">
      {text}
      {kind.screen === '/monitors/$monitorId' ? (
        <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: object.id }} size="sm">
          {label}
        </RouterAnchor>
      ) : (
        <RouterAnchor to={kind.screen} size="sm">
          {label}
        </RouterAnchor>
      )}
    </Text>
  );
}
