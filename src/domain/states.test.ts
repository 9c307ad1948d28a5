import { describe, expect, it } from 'vitest';
import type { PageState } from './snapshot.js';
import { componentState, dayState, type MonitorStateInput, nextMonitorState, overallState } from './states.js';

const base: MonitorStateInput = { state: 'up', failureStreak: 0, retries: 1, degradedLatencyMs: null };

describe('monitor state from results', () => {
  it('a passing check makes the monitor up', () => {
    expect(nextMonitorState({ ...base, state: 'unknown' }, { ok: true, latencyMs: 20, source: 'edge' })).toMatchObject({
      state: 'up',
      failureStreak: 0,
    });
  });

  it('one failed check does not make it down (retries 1): the state stays', () => {
    expect(nextMonitorState(base, { ok: false, source: 'edge' })).toMatchObject({ state: 'up', failureStreak: 1 });
    expect(nextMonitorState({ ...base, state: 'unknown' }, { ok: false, source: 'edge' })).toMatchObject({
      state: 'unknown',
    });
  });

  it('the second failure in a row makes it down (retries 1)', () => {
    expect(nextMonitorState({ ...base, failureStreak: 1 }, { ok: false, source: 'edge' })).toMatchObject({
      state: 'down',
      failureStreak: 2,
    });
  });

  it('retries 0 goes down on the first failure; retries 3 on the fourth', () => {
    expect(nextMonitorState({ ...base, retries: 0 }, { ok: false, source: 'relay' }).state).toBe('down');
    let m = { ...base, retries: 3 };
    const states: string[] = [];
    for (let i = 0; i < 4; i++) {
      const t = nextMonitorState(m, { ok: false, source: 'edge' });
      states.push(t.state);
      m = { ...m, state: t.state, failureStreak: t.failureStreak };
    }
    expect(states).toEqual(['up', 'up', 'up', 'down']);
  });

  it('one success brings a down monitor back up', () => {
    expect(
      nextMonitorState({ ...base, state: 'down', failureStreak: 5 }, { ok: true, latencyMs: 5, source: 'edge' }),
    ).toMatchObject({ state: 'up', failureStreak: 0 });
  });

  it('a passing check slower than degradedLatencyMs is degraded', () => {
    const m = { ...base, degradedLatencyMs: 500 };
    expect(nextMonitorState(m, { ok: true, latencyMs: 501, source: 'edge' }).state).toBe('degraded');
    expect(nextMonitorState(m, { ok: true, latencyMs: 500, source: 'edge' }).state).toBe('up');
  });

  it('a passing check the probe flags degraded (fewer players than minPlayers) is degraded', () => {
    expect(nextMonitorState(base, { ok: true, latencyMs: 5, degraded: true, source: 'edge' }).state).toBe('degraded');
  });

  it('a heartbeat reporting down is down at once, retries or not', () => {
    expect(nextMonitorState({ ...base, retries: 3 }, { ok: false, source: 'push' }).state).toBe('down');
  });
});

describe('component state', () => {
  const c = (over: Partial<Parameters<typeof componentState>[0]>) =>
    componentState({ monitorState: 'up', monitorEnabled: true, inMaintenance: false, activeImpacts: [], ...over });

  it.each([
    ['up', 'operational'],
    ['degraded', 'degraded'],
    ['down', 'down'],
    ['unknown', 'unknown'],
  ] as const)('a monitor %s shows as %s', (monitorState, expected) => {
    expect(c({ monitorState })).toBe(expected);
  });

  it('a disabled monitor shows as unknown', () => {
    expect(c({ monitorEnabled: false })).toBe('unknown');
  });

  it('maintenance wins over the monitor, even when it is down', () => {
    expect(c({ monitorState: 'down', inMaintenance: true })).toBe('maintenance');
  });

  it('incidents raise the state: minor → degraded, major/critical → down, none → no change', () => {
    expect(c({ activeImpacts: ['minor'] })).toBe('degraded');
    expect(c({ activeImpacts: ['major'] })).toBe('down');
    expect(c({ activeImpacts: ['critical'] })).toBe('down');
    expect(c({ activeImpacts: ['none'] })).toBe('operational');
  });

  it('an incident never lowers the state', () => {
    expect(c({ monitorState: 'down', activeImpacts: ['minor'] })).toBe('down');
  });

  it('a component without a monitor follows its incidents and maintenance only', () => {
    expect(c({ monitorState: null })).toBe('operational');
    expect(c({ monitorState: null, activeImpacts: ['major'] })).toBe('down');
    expect(c({ monitorState: null, inMaintenance: true })).toBe('maintenance');
  });
});

describe('overall state of a page', () => {
  const o = (
    components: PageState[],
    pageImpacts: ('none' | 'minor' | 'major' | 'critical')[] = [],
    pageMaintenance = false,
  ) => overallState({ components, pageImpacts, pageMaintenance });

  it('everything operational', () => {
    expect(o(['operational', 'operational'])).toEqual({ state: 'operational', label: 'All systems operational' });
    expect(o([])).toEqual({ state: 'operational', label: 'All systems operational' });
  });

  it('fewer than half down is a partial outage, counted', () => {
    expect(o(['down', ...Array<PageState>(7).fill('operational')])).toEqual({
      state: 'degraded',
      label: 'Partial outage: 1 of 8 components down',
    });
  });

  it('half or more down is a major outage', () => {
    expect(o(['down', 'operational'])).toEqual({ state: 'down', label: 'Major outage' });
    expect(o(['down'])).toEqual({ state: 'down', label: 'Major outage' });
  });

  it('components in maintenance are not counted against the rest', () => {
    expect(o(['down', 'maintenance', 'maintenance', 'operational', 'operational'])).toEqual({
      state: 'degraded',
      label: 'Partial outage: 1 of 3 components down',
    });
  });

  it('maintenance in progress', () => {
    expect(o(['maintenance', 'operational'])).toEqual({
      state: 'maintenance',
      label: 'Scheduled maintenance in progress',
    });
    expect(o(['operational'], [], true).state).toBe('maintenance');
  });

  it('degraded performance', () => {
    expect(o(['degraded', 'operational'])).toEqual({ state: 'degraded', label: 'Degraded performance' });
  });

  it('page-wide incidents: critical → major outage, major → partial outage, minor → degraded', () => {
    expect(o(['operational'], ['critical'])).toEqual({ state: 'down', label: 'Major outage' });
    expect(o(['operational'], ['major'])).toEqual({ state: 'degraded', label: 'Partial outage' });
    expect(o(['operational'], ['minor'])).toEqual({ state: 'degraded', label: 'Degraded performance' });
  });

  it('all unknown is unknown; some unknown is said', () => {
    expect(o(['unknown', 'unknown'])).toEqual({ state: 'unknown', label: 'Status unknown' });
    expect(o(['unknown', 'operational'])).toEqual({
      state: 'operational',
      label: 'All reporting systems operational (1 not reporting)',
    });
  });
});

describe('day state in the uptime strip', () => {
  it.each([
    [undefined, 'unknown'],
    [{ count: 0, upCount: 0, degradedCount: 0 }, 'unknown'],
    [{ count: 100, upCount: 100, degradedCount: 0 }, 'operational'],
    [{ count: 100, upCount: 100, degradedCount: 3 }, 'degraded'],
    [{ count: 100, upCount: 97, degradedCount: 0 }, 'degraded'],
    [{ count: 100, upCount: 90, degradedCount: 0 }, 'down'],
  ])('%j is %s', (bucket, expected) => {
    expect(dayState(bucket)).toBe(expected);
  });
});
