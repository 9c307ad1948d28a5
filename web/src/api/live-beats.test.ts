// The monitor list's beats follow the live stream: a new result is a new beat at once; the same result is not two.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { LiveCache, type LiveMonitor } from './live';
import { monitorKeys } from './monitors';
import type { MonitorStrip } from './types';

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
const strip = (id: string, beats: MonitorStrip['beats']): MonitorStrip => ({ id, points: [], uptime: null, beats });

describe('the list’s beats under the live stream', () => {
  it('adds each new result as a beat, keeps the last 30, and leaves other monitors’ strips as they were', () => {
    const client = new QueryClient();
    const key = monitorKeys.sparklines('acme', ['mon_1', 'mon_2']);
    const other = strip('mon_2', [{ at: 500, ok: true, latencyMs: 3, message: 'open' }]);
    const past = Array.from({ length: 30 }, (_, i) => ({ at: i, ok: true, latencyMs: 10, message: 'open' }));
    client.setQueryData(key, { from: 0, to: 1000, monitors: [strip('mon_1', past), other] });
    const cache = new LiveCache(client, 'acme');

    cache.monitor(live(), 'up');
    const after = client.getQueryData<{ monitors: MonitorStrip[] }>(key);
    expect(after?.monitors[0]?.beats).toHaveLength(30);
    expect(after?.monitors[0]?.beats.at(-1)).toEqual({
      at: 2000,
      ok: false,
      latencyMs: null,
      message: 'connect ECONNREFUSED',
    });
    expect(after?.monitors[0]?.beats[0]?.at).toBe(1);
    expect(after?.monitors[1]).toBe(other);

    // The same result again (a snapshot after a reconnection): no second beat, and the data stays the same object.
    cache.snapshot([live()], false);
    expect(client.getQueryData(key)).toBe(after);
    cache.dispose();
  });

  it('draws the first beat of a monitor that had none', () => {
    const client = new QueryClient();
    const key = monitorKeys.sparklines('acme', ['mon_1']);
    client.setQueryData(key, { from: 0, to: 1000, monitors: [strip('mon_1', [])] });
    const cache = new LiveCache(client, 'acme');
    cache.monitor(live({ state: 'up', ok: true, latencyMs: 9, message: 'open' }), 'unknown');
    expect(client.getQueryData<{ monitors: MonitorStrip[] }>(key)?.monitors[0]?.beats).toEqual([
      { at: 2000, ok: true, latencyMs: 9, message: 'open' },
    ]);
    cache.dispose();
  });
});
