// The Audit log screen (/app/settings/audit-log): who (a user, an API key, warden.yaml or the CLI) did what to which
// object and when, newest first, a page at a time ("Load more"), filtered by actor and object type. Admins only.
import { Badge, Button, Code, Group, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiKeysQuery } from '../api/api-keys';
import { type AuditEntry, auditLogQuery } from '../api/audit';
import { isApiError } from '../api/client';
import { membersQuery } from '../api/members';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { Forbidden } from '../ui/forbidden';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { EmptyState } from '../ui/states';
import { Timestamp } from '../ui/timestamp';
import { AuditObject, objectTypeLabel } from './audit-log/audit-object';

/** The object types writes record (the part of the action before the dot). */
const OBJECT_TYPES = [
  'monitor',
  'page',
  'component',
  'incident',
  'maintenance',
  'relay',
  'notification-channel',
  'subscriber',
  'api-key',
  'member',
  'invitation',
  'organization',
  'config',
];
const ACTOR_KINDS: Record<AuditEntry['actor']['kind'], string> = { user: 'user', apiKey: 'API key', system: 'Warden' };

export default function AuditLogScreen() {
  const { role } = useOrganizationRole();
  const allowed = roleAtLeast(role, 'admin');
  const [actor, setActor] = useState<string | null>(null);
  const [objectType, setObjectType] = useState<string | null>(null);
  const filters = { ...(actor ? { actor } : {}), ...(objectType ? { objectType } : {}) };
  const log = useInfiniteQuery({ ...auditLogQuery(useOrganizationKey(), filters), enabled: allowed });
  const entries = useMemo(() => log.data?.pages.flatMap((p) => p.entries) ?? [], [log.data]);

  return (
    <>
      <ScreenHeader title="Audit log" />
      {!allowed || isApiError(log.error, 403) ? (
        <Forbidden what="read the audit log" least="admin" role={role} error={log.error} />
      ) : (
        <Stack gap="sm">
          <Filters actor={actor} objectType={objectType} onActor={setActor} onObjectType={setObjectType} />
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {log.isPending
              ? ''
              : `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${log.hasNextPage ? ' shown (older ones follow)' : ''}`}
          </Text>
          <QueryState
            query={{ data: log.data && entries, error: log.error, isPending: log.isPending, refetch: log.refetch }}
            loading="Loading the audit log"
            failed="Could not load the audit log"
            isEmpty={(shown) => shown.length === 0}
            empty={
              <EmptyState
                title="Nothing recorded"
                description={
                  actor || objectType
                    ? 'Nothing matches these filters.'
                    : 'Writes through the API, the CLI and warden.yaml appear here.'
                }
              />
            }
          >
            {(shown) => <EntryTable entries={shown} />}
          </QueryState>
          {log.hasNextPage && (
            <Group>
              <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
                Load more
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </>
  );
}

function Filters({
  actor,
  objectType,
  onActor,
  onObjectType,
}: {
  actor: string | null;
  objectType: string | null;
  onActor: (v: string | null) => void;
  onObjectType: (v: string | null) => void;
}) {
  const org = useOrganizationKey();
  const members = useQuery({ ...membersQuery(org), staleTime: 60_000 });
  const keys = useQuery({ ...apiKeysQuery(org), staleTime: 60_000 });
  const actors = [
    {
      group: 'Members',
      items: (members.data?.members ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.email})` })),
    },
    {
      group: 'API keys',
      items: (keys.data?.apiKeys ?? []).map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` })),
    },
    {
      group: 'Warden',
      items: [
        { value: 'config', label: 'warden.yaml' },
        { value: 'cli', label: 'the warden command' },
      ],
    },
  ].filter((g) => g.items.length > 0);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" maw={640}>
      <Select label="Actor" placeholder="Anyone" clearable searchable data={actors} value={actor} onChange={onActor} />
      <Select
        label="Object type"
        placeholder="Any"
        clearable
        searchable
        data={OBJECT_TYPES.map((type) => ({ value: type, label: objectTypeLabel(type) }))}
        value={objectType}
        onChange={onObjectType}
      />
    </SimpleGrid>
  );
}

function EntryTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Caption>Audit log entries, newest first.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Who</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            <Table.Th scope="col">Object</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <Timestamp ms={entry.at} />
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm">
                    {entry.actor.kind === 'system' && entry.actor.id === 'config' ? 'warden.yaml' : entry.actor.name}
                  </Text>
                  <Badge size="xs" variant="default" tt="none">
                    {ACTOR_KINDS[entry.actor.kind]}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td>
                <Code>{entry.action}</Code>
                {entry.detail && <Text size="xs">{describeDetail(entry.detail)}</Text>}
              </Table.Td>
              <Table.Td>
                <AuditObject object={entry.object} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `{ fields: ['name'], role: 'viewer' }` → "fields: name; role: viewer" (never secrets: the server leaves them out). */
function describeDetail(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(
      ([k, v]) =>
        `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`,
    )
    .join('; ');
}
