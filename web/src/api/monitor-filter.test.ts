// Filtering in the browser (a server that answers the whole list) follows the server's rules.
import { describe, expect, it } from 'vitest';
import { filterMonitors } from './monitor-filter';
import type { MonitorView } from './types';

const monitor = (over: Partial<MonitorView>): MonitorView =>
  ({
    id: 'mon_1',
    key: 'lobby',
    name: 'Lobby',
    type: 'tcp',
    state: 'up',
    enabled: true,
    tags: [],
    relayId: null,
    relayKey: null,
    ...over,
  }) as MonitorView;
const LOBBY = monitor({});
const PANEL = monitor({
  id: 'mon_2',
  key: 'panel',
  name: 'Game panel',
  type: 'pterodactyl',
  state: 'down',
  tags: ['eu'],
  relayId: 'rly_1',
  relayKey: 'basement',
});
const OLD = monitor({ id: 'mon_3', key: 'old', name: 'Old server', state: 'down', enabled: false });
const ALL = [LOBBY, PANEL, OLD];

describe('filterMonitors', () => {
  it('searches name and key in any case, and filters by type, tag and relay (key or id)', () => {
    expect(filterMonitors(ALL, { q: 'GAME' }, undefined)).toEqual([PANEL]);
    expect(filterMonitors(ALL, { q: 'lob' }, undefined)).toEqual([LOBBY]);
    expect(filterMonitors(ALL, { type: 'pterodactyl' }, undefined)).toEqual([PANEL]);
    expect(filterMonitors(ALL, { tag: 'eu' }, undefined)).toEqual([PANEL]);
    expect(filterMonitors(ALL, { relay: 'basement' }, undefined)).toEqual([PANEL]);
    expect(filterMonitors(ALL, { relay: 'rly_1' }, undefined)).toEqual([PANEL]);
  });

  it('counts a disabled monitor as paused, not as its last state', () => {
    expect(filterMonitors(ALL, { state: 'down' }, undefined)).toEqual([PANEL]);
    expect(filterMonitors(ALL, { state: 'paused' }, undefined)).toEqual([OLD]);
  });

  it('keeps the monitors a page shows, and none until they are known', () => {
    expect(filterMonitors(ALL, { page: 'main' }, new Set(['mon_1', 'mon_3']))).toEqual([LOBBY, OLD]);
    expect(filterMonitors(ALL, { page: 'main' }, undefined)).toEqual([]);
  });
});
