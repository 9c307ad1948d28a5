// The live stream's messages patch the cached monitors (lists, pages of lists, a detail) and leave the rest alone.
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, LIVE_BACKOFF, LiveCache, type LiveMonitor, patchData } from './live';
import { monitorKeys } from './monitors';
import type { MonitorPage, MonitorView } from './types';

const view = (over: Partial<MonitorView> = {}): MonitorView =>
  ({
    id: 'mon_1',
    key: 'lobby',
    name: 'Lobby',
    type: 'tcp',
    state: 'up',
    stateSince: 1000,
    enabled: true,
    pausedAt: null,
    tags: [],
    relayId: null,
    relayKey: null,
    latest: {
      checkedAt: 1000,
      ok: true,
      latencyMs: 12,
      message: 'open',
      error: null,
      data: { players: 3 },
      source: 'edge',
    },
    ...over,
  }) as MonitorView;
const live = (over: Partial<LiveMonitor> = {}): LiveMonitor => ({
  id: 'mon_1',
  key: 'lobby',
  name: 'Lobby',
  type: 'tcp',
  state: 'down',
  since: 2000,
  checkedAt: 2000,
  ok: false,
  latencyMs: null,
  message: 'connect ECONNREFUSED',
  ...over,
});

describe('patchData', () => {
  it('updates a monitor in the pages of an infinite list, keeping everything else by reference', () => {
    const other = view({ id: 'mon_2', key: 'web' });
    const page: MonitorPage = { monitors: [view(), other], nextCursor: null, total: 2 };
    const data = { pages: [page], pageParams: [''] };
    const patched = patchData(data, new Map([['mon_1', live()]])) as typeof data;
    expect(patched).not.toBe(data);
    expect(patched.pages[0]?.monitors[0]).toMatchObject({
      state: 'down',
      stateSince: 2000,
      latest: { ok: false, error: 'connect ECONNREFUSED', data: null, latencyMs: null },
    });
    expect(patched.pages[0]?.monitors[1]).toBe(other);
    // Nothing it holds: the same object, so nothing renders again.
    expect(patchData(data, new Map([['mon_9', live({ id: 'mon_9' })]]))).toBe(data);
  });

  it('takes paused as disabled, keeps the probe data of a passing check, and patches a single monitor', () => {
    const paused = patchData(
      view(),
      new Map([['mon_1', live({ state: 'paused', since: 5000, checkedAt: 1000, ok: true })]]),
    ) as MonitorView;
    // Since when it is paused; its state keeps its own time.
    expect(paused).toMatchObject({ enabled: false, state: 'up', stateSince: 1000, pausedAt: 5000 });
    expect(paused.latest?.data).toEqual({ players: 3 });
    const passing = patchData(
      view({ enabled: false }),
      new Map([['mon_1', live({ state: 'up', checkedAt: 3000, ok: true, latencyMs: 9, message: 'open' })]]),
    ) as MonitorView;
    expect(passing).toMatchObject({
      enabled: true,
      state: 'up',
      latest: { checkedAt: 3000, latencyMs: 9, message: 'open', data: { players: 3 } },
    });
    const same = view();
    expect(patchData(same, new Map([['mon_1', live({ state: 'up', since: 1000, checkedAt: 1000, ok: true })]]))).toBe(
      same,
    );
    // Sparklines hold ids too, but no monitors: untouched.
    const sparklines = { monitors: [{ id: 'mon_1', points: [] }] };
    expect(patchData(sparklines, new Map([['mon_1', live()]]))).toBe(sparklines);
  });
});

describe('LiveCache', () => {
  afterEach(() => vi.useRealTimers());

  it('patches the lists and the monitor’s own query, then refetches state-filtered lists and the monitor’s history a moment later', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const list = (search: object) =>
      client.setQueryData(monitorKeys.list('acme', search), {
        pages: [{ monitors: [view()], nextCursor: null }],
        pageParams: [''],
      });
    list({});
    list({ state: 'up' });
    client.setQueryData(monitorKeys.detail('acme', 'mon_1'), view());
    client.setQueryData(monitorKeys.states('acme', 'mon_1'), { pages: [{ changes: [] }], pageParams: [''] });
    client.setQueryData(monitorKeys.states('acme', 'mon_2'), { pages: [{ changes: [] }], pageParams: [''] });
    const invalidated: unknown[] = [];
    vi.spyOn(client, 'invalidateQueries').mockImplementation(async (filters) => {
      for (const query of client.getQueryCache().findAll({ queryKey: filters?.queryKey }))
        if (filters?.predicate?.(query)) invalidated.push(query.queryKey);
    });
    const cache = new LiveCache(client, 'acme');

    // Only the latest result moved: the monitor's history is stale, the lists are not.
    cache.monitor(live({ state: 'up', since: 1000, checkedAt: 1500, ok: true, latencyMs: 15 }), 'up');
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidated).toEqual([monitorKeys.states('acme', 'mon_1')]);
    expect(client.getQueryData<MonitorView>(monitorKeys.detail('acme', 'mon_1'))?.latest?.latencyMs).toBe(15);

    invalidated.length = 0;
    cache.monitor(live(), 'up');
    expect(client.getQueryData<MonitorView>(monitorKeys.detail('acme', 'mon_1'))?.state).toBe('down');
    expect(
      client.getQueryData<{ pages: MonitorPage[] }>(monitorKeys.list('acme', {}))?.pages[0]?.monitors[0]?.state,
    ).toBe('down');
    expect(invalidated).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidated).toEqual([monitorKeys.list('acme', { state: 'up' }), monitorKeys.states('acme', 'mon_1')]);

    // A later snapshot (a reconnection, monitors added or removed): every list.
    invalidated.length = 0;
    cache.snapshot([live()], true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidated).toEqual([monitorKeys.list('acme', {}), monitorKeys.list('acme', { state: 'up' })]);
  });

  it('leaves another organization’s monitors alone, even one with the same id', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const other = view();
    client.setQueryData(monitorKeys.detail('borealis', 'mon_1'), other);
    client.setQueryData(monitorKeys.list('borealis', {}), {
      pages: [{ monitors: [other], nextCursor: null }],
      pageParams: [''],
    });
    client.setQueryData(monitorKeys.detail('acme', 'mon_1'), view());
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const cache = new LiveCache(client, 'acme');

    cache.monitor(live(), 'up');
    cache.snapshot([live()], true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.getQueryData<MonitorView>(monitorKeys.detail('acme', 'mon_1'))?.state).toBe('down');
    expect(client.getQueryData(monitorKeys.detail('borealis', 'mon_1'))).toBe(other);
    expect(client.getQueryData<{ pages: MonitorPage[] }>(monitorKeys.list('borealis', {}))?.pages[0]?.monitors[0]).toBe(
      other,
    );
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate.mock.calls[0]?.[0]?.queryKey).toEqual(monitorKeys.all('acme'));
  });
});

describe('backoffDelay', () => {
  it('doubles from a second up to the cap, each wait between half and all of it', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(20, () => 1)).toBe(LIVE_BACKOFF.maxMs);
    expect(backoffDelay(20, () => 0)).toBe(LIVE_BACKOFF.maxMs / 2);
  });
});
