// An audit entry's object: its label at the time, and a link to where it is shown when it still exists (a monitor's
// own screen, or the list screen of its kind). Whether it exists comes from the list of its kind, fetched once per kind.
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type AuditEntry, existingObjectsQuery } from '../../api/audit';
import { useOrganizationKey } from '../../api/organization';
import { RouterAnchor } from '../../ui/router-link';

type AuditObjectView = AuditEntry['object'];

type ListScreen =
  | '/pages'
  | '/relays'
  | '/notifications'
  | '/settings/api-keys'
  | '/settings/members'
  | '/settings/organization';

/** For each kind with a screen: where it is shown. */
const SCREENS: Record<string, ListScreen | '/monitors/$monitorId'> = {
  monitor: '/monitors/$monitorId',
  page: '/pages',
  relay: '/relays',
  'notification-channel': '/notifications',
  'api-key': '/settings/api-keys',
  member: '/settings/members',
  invitation: '/settings/members',
  organization: '/settings/organization',
};

/** An object type as people write it: "API key", not "api-key". */
export function objectTypeLabel(type: string): string {
  return type === 'api-key' ? 'API key' : type.replaceAll('-', ' ');
}

export function AuditObject({ object }: { object: AuditObjectView }) {
  const screen = SCREENS[object.type];
  const existing = useQuery({
    ...existingObjectsQuery(useOrganizationKey(), object.type),
    enabled: screen !== undefined && object.id !== null,
  });
  const label = object.label ?? object.id ?? '–';
  const text = (
    <Text size="xs" c="dimmed" component="span">
      {objectTypeLabel(object.type)}{' '}
    </Text>
  );
  if (!screen || object.id === null || !existing.data?.includes(object.id))
    return (
      <Text size="sm">
        {text}
        {label}
      </Text>
    );
  return (
    <Text size="sm">
      {text}
      {screen === '/monitors/$monitorId' ? (
        <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: object.id }} size="sm">
          {label}
        </RouterAnchor>
      ) : (
        <RouterAnchor to={screen} size="sm">
          {label}
        </RouterAnchor>
      )}
    </Text>
  );
}
