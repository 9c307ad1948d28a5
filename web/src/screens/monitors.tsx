// The Monitors screen (/app/monitors): every monitor with its state, type, latency, last 24 h and players, filtered
// by the URL's query (search, state, type, tag, page, relay), in a virtualized table that pages from the server.
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMonitorList, useSparklines } from '../api/monitor-list';
import { useCanEditMonitors } from '../api/monitors';
import { useOrganizationKey } from '../api/organization';
import { pagesQuery } from '../api/pages';
import { relaysQuery } from '../api/relays';
import type { MonitorStrip, MonitorView } from '../api/types';
import { Beats } from '../ui/beats';
import { ManagedBadge } from '../ui/managed-badge';
import { MONITOR_STATE_OPTIONS, MonitorStateLabel } from '../ui/monitor-state';
import { QueryState } from '../ui/query-state';
import { RouterAnchor } from '../ui/router-link';
import { ScreenHeader } from '../ui/screen-header';
import { Sparkline } from '../ui/sparkline';
import { EmptyState } from '../ui/states';
import { UnreachableBadge } from '../ui/unreachable-badge';
import { type Column, VirtualTable } from '../ui/virtual-table';
import type { MonitorFilter, MonitorSearch } from './monitors-search';

const route = getRouteApi('/signed-in/monitors');

export default function MonitorsScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setFilter = useCallback(
    (name: MonitorFilter, value: string | null) =>
      void navigate({
        to: '/monitors',
        search: (prev: MonitorSearch) => ({ ...prev, [name]: value || undefined }),
        replace: true,
      }),
    [navigate],
  );
  const list = useMonitorList(search);
  const sparklines = useSparklines(useMemo(() => list.monitors.map((m) => m.id), [list.monitors]));
  const columns = useMemo(() => monitorColumns(sparklines), [sparklines]);
  const filtered = Object.keys(search).length > 0;
  const canEdit = useCanEditMonitors();

  return (
    <>
      <ScreenHeader title="Monitors">
        {canEdit && (
          <>
            <RouterAnchor to="/panels">Import from a panel</RouterAnchor>
            <RouterAnchor to="/monitors/new" fw={600}>
              New monitor
            </RouterAnchor>
          </>
        )}
      </ScreenHeader>
      <Filters search={search} monitors={list.monitors} onChange={setFilter} />
      <Text size="sm" c="dimmed" mb="xs" role="status" aria-live="polite">
        {list.isPending ? '' : countText(list.monitors.length, list.total)}
      </Text>
      <QueryState
        query={{ ...list, data: list.monitors }}
        loading="Loading monitors"
        failed="Could not load the monitors"
        isEmpty={(monitors) => monitors.length === 0}
        empty={
          filtered ? (
            <EmptyState
              title="No monitors match"
              description="Change or clear the filters."
              action={
                <Button variant="default" onClick={() => void navigate({ to: '/monitors', search: {}, replace: true })}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title="No monitors yet"
              description={
                canEdit
                  ? 'Add one with “New monitor” above, or describe them in warden.yaml or create them through the API; they appear here with their state.'
                  : 'An editor adds them here, in warden.yaml or through the API; they appear here with their state.'
              }
            />
          )
        }
      >
        {(monitors) => (
          <VirtualTable
            caption="Monitors"
            rows={monitors}
            columns={columns}
            rowKey={(m) => m.id}
            total={list.total}
            onEndReached={list.loadMore}
          />
        )}
      </QueryState>
    </>
  );
}

function countText(shown: number, total: number | undefined): string {
  const n = total ?? shown;
  return `${n} monitor${n === 1 ? '' : 's'}${total !== undefined && total > shown ? ` (${shown} loaded)` : ''}`;
}

const SEARCH_PAUSE_MS = 80;

function Filters({
  search,
  monitors,
  onChange,
}: {
  search: MonitorSearch;
  monitors: MonitorView[];
  onChange: (name: MonitorFilter, value: string | null) => void;
}) {
  // The box and the URL follow each other: typing updates ?q= after a pause, and a change of ?q= from elsewhere (clear
  // filters, back button) updates the box. `sent` is the last value they agreed on.
  const [text, setText] = useState(search.q ?? '');
  // Short: the server answers a filtered page of 10,000 monitors in tens of milliseconds (npm run bench dashboard), so
  // a search follows typing closely; the pause only spares a request per keystroke of a fast typist.
  const [debounced] = useDebouncedValue(text, SEARCH_PAUSE_MS);
  const sent = useRef(search.q ?? '');
  useEffect(() => {
    const q = search.q ?? '';
    if (q === sent.current) return;
    sent.current = q;
    setText(q);
  }, [search.q]);
  useEffect(() => {
    const q = debounced.trim();
    if (q === sent.current) return;
    sent.current = q;
    onChange('q', q);
  }, [debounced, onChange]);
  const org = useOrganizationKey();
  const pages = useQuery({ ...pagesQuery(org), staleTime: 60_000 });
  const relays = useQuery({ ...relaysQuery(org), staleTime: 60_000 });
  const distinct = (values: (string | undefined)[], current: string | undefined) =>
    [...new Set([...values, current].filter((v): v is string => !!v))].sort();
  const select = { size: 'sm', clearable: true, placeholder: 'Any' } as const;
  return (
    <Stack gap="xs" mb="sm">
      <TextInput
        label="Search"
        placeholder="Name or key"
        type="search"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={360}
      />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" maw={900}>
        <Select
          {...select}
          label="State"
          data={MONITOR_STATE_OPTIONS}
          value={search.state ?? null}
          onChange={(v) => onChange('state', v)}
        />
        <Select
          {...select}
          label="Type"
          data={distinct(
            monitors.map((m) => m.type),
            search.type,
          )}
          value={search.type ?? null}
          onChange={(v) => onChange('type', v)}
        />
        <Select
          {...select}
          label="Tag"
          data={distinct(
            monitors.flatMap((m) => m.tags),
            search.tag,
          )}
          value={search.tag ?? null}
          onChange={(v) => onChange('tag', v)}
        />
        <Select
          {...select}
          label="Page"
          data={(pages.data?.pages ?? []).map((p) => ({ value: p.slug, label: p.title }))}
          value={search.page ?? null}
          onChange={(v) => onChange('page', v)}
        />
        <Select
          {...select}
          label="Relay"
          data={(relays.data?.relays ?? []).map((r) => ({ value: r.key, label: r.name }))}
          value={search.relay ?? null}
          onChange={(v) => onChange('relay', v)}
        />
      </SimpleGrid>
    </Stack>
  );
}

function monitorColumns(sparklines: Map<string, MonitorStrip>): Column<MonitorView>[] {
  return [
    {
      key: 'state',
      header: 'State',
      width: 120,
      cell: (m) => <MonitorStateLabel state={m.state} paused={!m.enabled} />,
    },
    {
      key: 'name',
      header: 'Name',
      cell: (m) => (
        <Group gap="xs" wrap="nowrap">
          <RouterAnchor to="/monitors/$monitorId" params={{ monitorId: m.id }} size="sm" fw={500}>
            {m.name}
          </RouterAnchor>
          {/* At phone width the name needs the room: the badges show from 576 px. */}
          <Group gap="xs" wrap="nowrap" visibleFrom="xs">
            <ManagedBadge managedBy={m.managedBy} />
            <UnreachableBadge note={m.unreachable} />
          </Group>
        </Group>
      ),
    },
    {
      key: 'beats',
      header: 'Recent checks',
      width: 132,
      cell: (m) => {
        const strip = sparklines.get(m.id);
        return strip ? (
          <>
            <Beats beats={strip.beats} slots={BEAT_SLOTS} degradedLatencyMs={m.degradedLatencyMs} name={m.name} />
            {/* Phones have no room for the uptime column: it reads under the beats. */}
            {strip.uptime != null && (
              <Text size="xs" c="dimmed" hiddenFrom="xs" mt={2}>
                {uptimeText(strip.uptime)} up in 24 h
              </Text>
            )}
          </>
        ) : null;
      },
    },
    {
      key: 'uptime',
      header: 'Uptime 24 h',
      visibleFrom: 'xs',
      width: 96,
      cell: (m) => <Text size="sm">{uptimeText(sparklines.get(m.id)?.uptime)}</Text>,
    },
    { key: 'type', header: 'Type', visibleFrom: 'sm', cell: (m) => <Text size="sm">{m.type}</Text> },
    {
      key: 'latency',
      header: 'Latency',
      visibleFrom: 'xs',
      cell: (m) => <Text size="sm">{m.latest?.latencyMs != null ? `${m.latest.latencyMs} ms` : '–'}</Text>,
    },
    {
      key: 'sparkline',
      header: 'Last 24 h',
      visibleFrom: 'md',
      width: 112,
      cell: (m) => {
        const points = sparklines.get(m.id)?.points;
        return points ? (
          <Sparkline values={points.map((p) => p.latencyMs)} label={`Latency of ${m.name} over the last 24 hours`} />
        ) : null;
      },
    },
    { key: 'players', header: 'Players', visibleFrom: 'sm', cell: (m) => <Text size="sm">{players(m)}</Text> },
  ];
}

/** Beats a row has room for: the last 30 checks. */
const BEAT_SLOTS = 30;

/** Uptime as a percentage with the precision that tells 99.9 from 100; a dash before the first check. */
function uptimeText(uptime: number | null | undefined): string {
  if (uptime == null) return '–';
  const percent = uptime * 100;
  if (percent === 100 || percent === 0) return `${percent} %`;
  return `${percent >= 99 ? percent.toFixed(2) : percent.toFixed(1)} %`;
}

function players(m: MonitorView): string {
  const data = m.latest?.data;
  const count = data?.['players'];
  const max = data?.['maxPlayers'];
  if (typeof count !== 'number') return '–';
  return typeof max === 'number' ? `${count} / ${max}` : String(count);
}
