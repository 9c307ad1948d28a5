// The Monitor screen (/app/monitors/{id}): its state (unreachable behind a down parent), type, target, tags, relay and
// parent; response times (and players) over a chosen range; its locations (several: each one's latest result and
// response time); recent checks; state history; and what can be done to it
// (check now, pause, edit, delete, push token).
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { monitorQuery, monitorTypesQuery, useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import type { MonitorView } from '../api/types';
import { ManagedBadge } from '../ui/managed-badge';
import { MonitorStateLabel } from '../ui/monitor-state';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { UnreachableBadge } from '../ui/unreachable-badge';
import { formatTime } from './monitor/format-time';
import { Locations } from './monitor/locations';
import { MonitorActions } from './monitor/monitor-actions';
import { RecentChecks } from './monitor/recent-checks';
import { ResponseChart } from './monitor/response-chart';
import { StateHistory } from './monitor/state-history';

const route = getRouteApi('/signed-in/monitors/$monitorId');

export default function MonitorScreen() {
  const { monitorId } = route.useParams();
  const monitor = useQuery(monitorQuery(useOrganizationKey(), monitorId));
  const types = useQuery(monitorTypesQuery);
  return (
    <QueryState query={monitor} loading="Loading the monitor" failed="Could not load the monitor">
      {(m) => <MonitorDetails m={m} typeLabel={types.data?.types.find((t) => t.id === m.type)?.label ?? m.type} />}
    </QueryState>
  );
}

function MonitorDetails({ m, typeLabel }: { m: MonitorView; typeLabel: string }) {
  const canEdit = useCanEditMonitors();
  return (
    <>
      <ScreenHeader title={m.name}>
        <ManagedBadge managedBy={m.managedBy} />
      </ScreenHeader>
      <Stack gap="lg">
        <Card withBorder padding="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" component="dl" m={0}>
            <Fact term="State">
              <Group gap="xs" wrap="wrap">
                <MonitorStateLabel state={m.state} paused={!m.enabled} />
                <Text size="xs" c="dimmed">
                  {/* Paused, the monitor keeps the state it had: the time it has been paused is the one that tells. */}
                  since {formatTime(!m.enabled && m.pausedAt !== null ? m.pausedAt : m.stateSince)}
                </Text>
                <UnreachableBadge note={m.unreachable} />
              </Group>
            </Fact>
            <Fact term="Type">{typeLabel}</Fact>
            <Fact term="Target">{targetOf(m)}</Fact>
            <Fact term="Runs on">
              {m.runOn === 'relay'
                ? `relay ${m.relayKey ?? '(none)'}`
                : m.runOn === 'push'
                  ? 'push (heartbeats)'
                  : 'Warden (edge)'}
            </Fact>
            {m.dependsOn && (
              <Fact term="Depends on">
                <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: m.dependsOn }} size="sm">
                  {m.dependsOn}
                </RouterAnchor>
              </Fact>
            )}
            <Fact term="Key">
              <code>{m.key}</code>
            </Fact>
            <Fact term="Tags">
              {m.tags.length === 0 ? (
                '–'
              ) : (
                <Group gap={4}>
                  {m.tags.map((t) => (
                    <Badge key={t} variant="light" color="gray" tt="none">
                      {t}
                    </Badge>
                  ))}
                </Group>
              )}
            </Fact>
            {m.latest && (
              <Fact term="Latest check">
                {formatTime(m.latest.checkedAt)}: {m.latest.ok ? 'passed' : 'failed'}
                {m.latest.latencyMs !== null && ` in ${m.latest.latencyMs} ms`}
                {(m.latest.ok ? m.latest.message : m.latest.error) &&
                  ` · ${m.latest.ok ? m.latest.message : m.latest.error}`}
              </Fact>
            )}
            {m.runOn !== 'push' && (
              <Fact term="Every">{`${m.intervalSec} s (timeout ${m.timeoutMs / 1000} s, ${m.retries} ${m.retries === 1 ? 'retry' : 'retries'})`}</Fact>
            )}
            {m.pushTokenPrefix && (
              <Fact term="Push token">
                <code>{m.pushTokenPrefix}…</code>
              </Fact>
            )}
          </SimpleGrid>
        </Card>
        <MonitorActions monitor={m} canEdit={canEdit} />
        <Section>
          <ResponseChart monitorId={m.id} type={m.type} />
        </Section>
        {(m.locations?.length ?? 0) > 0 && (
          <Section title="Locations">
            <Locations monitor={m} />
          </Section>
        )}
        <Section title="Recent checks">
          <RecentChecks monitorId={m.id} />
        </Section>
        <Section title="State history">
          <StateHistory monitorId={m.id} />
        </Section>
      </Stack>
    </>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {term}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

function Section({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <section>
      {title && (
        <Title order={2} size="h4" mb="xs">
          {title}
        </Title>
      )}
      {children}
    </section>
  );
}

/** What the monitor checks, in a few words: its URL, host and port, record or guild. */
function targetOf(m: MonitorView): string {
  const c = m.config;
  const text = (name: string) =>
    typeof c[name] === 'string' || typeof c[name] === 'number' ? String(c[name]) : undefined;
  const url = text('url') ?? text('panelUrl');
  if (url) return m.type === 'pterodactyl' && text('serverId') ? `${url} (server ${text('serverId')})` : url;
  if (text('hostname'))
    return `${text('recordType') ?? 'A'} ${text('hostname')}${text('resolver') ? ` via ${text('resolver')}` : ''}`;
  if (text('guildId')) return `Discord guild ${text('guildId')}`;
  if (text('host')) return text('port') ? `${text('host')}:${text('port')}` : (text('host') as string);
  return m.runOn === 'push' ? 'heartbeats sent to Warden' : '–';
}
