// The organization's live stream (WS /api/v1/live, docs/live.md) kept open while signed in: each message patches the
// monitors TanStack Query holds (list pages, a monitor's detail), so screens follow state changes without a reload.
// Reconnects with exponential backoff and jitter; every connection starts with a snapshot, taken as the truth.
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { components } from './live-schema';
import { monitorKeys } from './monitors';
import { hasPrefix } from './query-keys';
import type { MonitorPage, MonitorStrip, MonitorView } from './types';

/** A monitor as the stream tells of it; generated from the server's zod schemas (npm run gen:api). */
export type LiveMonitor = components['schemas']['LiveMonitor'];
export type LiveMessage = components['schemas']['LiveMessage'];

/** connecting: opening (or waiting to retry); live: messages arrive; offline: the last attempt failed, retrying. */
export type LiveStatus = 'connecting' | 'live' | 'offline';

export const LIVE_BACKOFF = { baseMs: 1000, maxMs: 30_000 } as const;

/** The wait before attempt `n` (0-based) after a failure: doubling up to the cap, randomized between half and all of it. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LIVE_BACKOFF.maxMs, LIVE_BACKOFF.baseMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Follows the organization's stream while mounted (a new organization: a new stream) and returns its status. */
export function useLiveUpdates(organizationKey: string | undefined): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!organizationKey || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    let snapshots = 0;
    const cache = new LiveCache(queryClient, organizationKey);
    const open = () => {
      const url = new URL('/api/v1/live', window.location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      url.searchParams.set('organization', organizationKey);
      setStatus((s) => (s === 'live' ? 'connecting' : s));
      socket = new WebSocket(url);
      socket.onmessage = (event) => {
        attempt = 0;
        setStatus('live');
        const message = parse(event.data);
        if (message?.type === 'snapshot') cache.snapshot(message.monitors, snapshots++ > 0);
        else if (message?.type === 'monitor') cache.monitor(message.monitor, message.previousState);
      };
      socket.onclose = () => {
        if (stopped) return;
        setStatus('offline');
        timer = setTimeout(open, backoffDelay(attempt++));
      };
    };
    // The first snapshot holds every monitor (about 180 bytes each): it waits until the screen's own requests are
    // answered, so neither the server nor the page reads it while the first screen is being drawn.
    const unsubscribe = whenSettled(queryClient, open);
    return () => {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      cache.dispose();
      socket?.close();
    };
  }, [organizationKey, queryClient]);
  return status;
}

/** The longest the stream waits for the first screen's requests. */
const SETTLE_MAX_MS = 3000;

/** Calls `then` once no query is being fetched (or after SETTLE_MAX_MS); returns a cancel. */
function whenSettled(queryClient: QueryClient, then: () => void): () => void {
  let done = false;
  const cache = queryClient.getQueryCache();
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    unsubscribe();
    then();
  };
  const check = () => {
    if (queryClient.isFetching() === 0) finish();
  };
  const timer = setTimeout(finish, SETTLE_MAX_MS);
  const unsubscribe = cache.subscribe(() => queueMicrotask(check));
  // Not at once: the screen's queries start in the same render.
  setTimeout(check, 0);
  return () => {
    done = true;
    clearTimeout(timer);
    unsubscribe();
  };
}

function parse(data: unknown): LiveMessage | undefined {
  try {
    const message = typeof data === 'string' ? (JSON.parse(data) as LiveMessage) : undefined;
    return message && (message.type === 'snapshot' || message.type === 'monitor') ? message : undefined;
  } catch {
    return undefined;
  }
}

/** How long state changes gather before the queries they make stale (filtered lists, a monitor's history) refetch. */
const REFETCH_AFTER_MS = 1000;

/**
 * Applies one organization's stream to TanStack Query's cache: the monitors held by its lists and by each monitor's
 * queries are patched in place. Another organization's cached monitors are not its to touch (their keys say whose).
 */
export class LiveCache {
  /** Monitors with a new result: their checks, stats and state history are stale. */
  private checked = new Set<string>();
  /** A state moved: lists filtered or sorted by state may gain or lose rows. */
  private stateChanged = false;
  /** Monitors may have come and gone: every list. */
  private listsChanged = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly queryClient: QueryClient,
    private readonly organization: string,
  ) {}

  /** Every monitor at once. `again`: not the first of this page, so monitors may have come and gone: lists refetch. */
  snapshot(monitors: readonly LiveMonitor[], again: boolean): void {
    this.patch(new Map(monitors.map((m) => [m.id, m])));
    if (again) {
      this.listsChanged = true;
      this.schedule();
    }
  }

  monitor(monitor: LiveMonitor, previousState: LiveMonitor['state']): void {
    this.patch(new Map([[monitor.id, monitor]]));
    this.checked.add(monitor.id);
    if (previousState !== monitor.state) this.stateChanged = true;
    this.schedule();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private patch(byId: ReadonlyMap<string, LiveMonitor>): void {
    // The lists, the picker's searches and each monitor's own queries (monitors.ts): what is not a monitor stays as it is.
    this.queryClient.setQueriesData({ queryKey: monitorKeys.all(this.organization) }, (data: unknown) =>
      patchData(data, byId),
    );
    // The list's beats: a new result is a new beat at once, not at the strips' next refetch.
    this.queryClient.setQueriesData(
      { queryKey: [...monitorKeys.all(this.organization), 'sparklines'] },
      (data: MonitorStrips | undefined) => appendBeats(data, byId),
    );
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const { checked, stateChanged, listsChanged } = this;
      this.checked = new Set();
      this.stateChanged = false;
      this.listsChanged = false;
      const lists = monitorKeys.lists(this.organization);
      const each = monitorKeys.each(this.organization);
      void this.queryClient.invalidateQueries({
        queryKey: monitorKeys.all(this.organization),
        predicate: ({ queryKey }) => {
          if (hasPrefix(queryKey, lists))
            return listsChanged || (stateChanged && stateDependent(queryKey[lists.length]));
          if (!hasPrefix(queryKey, each)) return false;
          // A monitor's own queries but itself (patched already): checks, stats, state history.
          const id = queryKey[each.length];
          return typeof id === 'string' && checked.has(id) && !isDetail(queryKey, this.organization, id);
        },
      });
    }, REFETCH_AFTER_MS);
  }
}

function isDetail(key: QueryKey, organization: string, id: string): boolean {
  const detail = monitorKeys.detail(organization, id);
  return key.length === detail.length && hasPrefix(key, detail);
}

function stateDependent(search: unknown): boolean {
  const s = (search ?? {}) as { state?: unknown; sort?: unknown };
  return s.state !== undefined || s.sort === 'state' || s.sort === 'recent';
}

/** The cached data with each monitor the stream told of updated; the same object when nothing changed (no re-render). */
export function patchData(data: unknown, byId: ReadonlyMap<string, LiveMonitor>): unknown {
  if (isMonitor(data)) return patchMonitor(data, byId);
  if (isInfinite(data)) {
    let changed = false;
    const pages = data.pages.map((page) => {
      const next = patchData(page, byId);
      changed ||= next !== page;
      return next as MonitorPage;
    });
    return changed ? { ...data, pages } : data;
  }
  if (isMonitorPage(data)) {
    let changed = false;
    const monitors = data.monitors.map((m) => {
      const next = isMonitor(m) ? patchMonitor(m, byId) : m;
      changed ||= next !== m;
      return next;
    });
    return changed ? { ...data, monitors } : data;
  }
  return data;
}

function patchMonitor(monitor: MonitorView, byId: ReadonlyMap<string, LiveMonitor>): MonitorView {
  const live = byId.get(monitor.id);
  if (!live) return monitor;
  const paused = live.state === 'paused';
  const state = live.state === 'paused' ? monitor.state : live.state;
  const latest = latestOf(monitor.latest, live);
  // Paused, `since` is when the pause began; the state kept keeps its own time.
  const stateSince = paused ? monitor.stateSince : live.since;
  const pausedAt = paused ? live.since : null;
  if (
    state === monitor.state &&
    monitor.enabled === !paused &&
    monitor.stateSince === stateSince &&
    monitor.pausedAt === pausedAt &&
    latest === monitor.latest &&
    monitor.name === live.name
  )
    return monitor;
  return { ...monitor, name: live.name, state, enabled: !paused, stateSince, pausedAt, latest };
}

function latestOf(latest: MonitorView['latest'], live: LiveMonitor): MonitorView['latest'] {
  if (live.checkedAt === null || live.ok === null) return latest;
  if (latest && latest.checkedAt === live.checkedAt) return latest;
  return {
    checkedAt: live.checkedAt,
    ok: live.ok,
    latencyMs: live.latencyMs,
    message: live.ok ? live.message : null,
    error: live.ok ? null : live.message,
    // The stream carries no probe data: what the last check found stays until the list is read again, unless it failed.
    data: live.ok ? (latest?.data ?? null) : null,
    source: latest?.source ?? 'edge',
  };
}

function isMonitor(value: unknown): value is MonitorView {
  return typeof value === 'object' && value !== null && 'id' in value && 'state' in value && 'stateSince' in value;
}

function isMonitorPage(value: unknown): value is MonitorPage {
  return typeof value === 'object' && value !== null && Array.isArray((value as { monitors?: unknown }).monitors);
}

function isInfinite(value: unknown): value is InfiniteData<MonitorPage> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { pages?: unknown }).pages) &&
    Array.isArray((value as { pageParams?: unknown }).pageParams)
  );
}

type MonitorStrips = { monitors: MonitorStrip[] };

/** The strips with each monitor's newest result added as a beat (the last BEATS kept); the same object when none is new. */
export function appendBeats(
  data: MonitorStrips | undefined,
  byId: ReadonlyMap<string, LiveMonitor>,
): MonitorStrips | undefined {
  if (!data || !Array.isArray(data.monitors)) return data;
  let changed = false;
  const monitors = data.monitors.map((strip) => {
    const live = byId.get(strip.id);
    const last = strip.beats[strip.beats.length - 1];
    if (!live || live.checkedAt === null || live.ok === null || (last !== undefined && live.checkedAt <= last.at))
      return strip;
    changed = true;
    const beat = { at: live.checkedAt, ok: live.ok, latencyMs: live.latencyMs, message: live.message };
    return { ...strip, beats: [...strip.beats, beat].slice(-BEATS_KEPT) };
  });
  return changed ? { ...data, monitors } : data;
}

/** As many beats as the server gives (BEATS_PER_MONITOR). */
const BEATS_KEPT = 30;
