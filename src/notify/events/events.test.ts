// The event builders alone: facts in, the event a receiver reads out. No store, no clock.
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../domain/incident.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Relay } from '../../domain/organization.js';
import type { Page } from '../../domain/page.js';
import { certificateItem } from './certificates.js';
import { incidentItem, incidentNotice } from './incidents.js';
import { flapEndedItem, formatDuration, notificationKind, reminderItem, stateChangeItem } from './monitors.js';
import { relayBackItem, relayOfflineItem } from './relays.js';

const T = Date.UTC(2026, 2, 10, 12);
const monitor = {
  id: 'mon_1',
  organizationId: 'org_a',
  key: 'lobby',
  name: 'Lobby',
  type: 'minecraft',
  state: 'down',
  stateSince: T,
  lastResult: { error: 'timed out' },
  config: { host: 'mc.example' },
} as unknown as Monitor;

describe('monitor events', () => {
  it('tells down, degraded and recovered-from-down only', () => {
    expect(notificationKind('up', 'down')).toBe('monitor.down');
    expect(notificationKind('up', 'degraded')).toBe('monitor.degraded');
    expect(notificationKind('down', 'up')).toBe('monitor.recovered');
    expect(notificationKind('degraded', 'up')).toBeNull();
    expect(notificationKind('unknown', 'up')).toBeNull();
    expect(notificationKind('down', 'down')).toBeNull();
  });

  it('says how long a recovered monitor was down, with its players, and the same id for the same change', () => {
    const change = {
      monitorId: 'mon_1',
      organizationId: 'org_a',
      previous: 'down',
      previousSince: T - 125_000,
      state: 'up',
      at: T,
      reason: null,
      lastResult: '{"ok":true,"data":{"players":{"online":3,"max":20}}}',
    } as const;
    const item = stateChangeItem(change, monitor, 'monitor.recovered');
    expect(item.event).toMatchObject({
      kind: 'monitor.recovered',
      severity: 'ok',
      title: 'Lobby is back up after 2 min',
      reason: null,
    });
    expect(item.event.monitor).toMatchObject({
      state: 'up',
      previousState: 'down',
      downtimeMs: 125_000,
      players: { online: 3, max: 20 },
    });
    expect(stateChangeItem(change, monitor, 'monitor.recovered').event.id).toBe(item.event.id);
    const down = stateChangeItem(
      { ...change, previous: 'up', state: 'down', lastResult: '{"ok":false,"error":"connection refused"}' },
      monitor,
      'monitor.down',
    );
    expect(down.event).toMatchObject({ severity: 'critical', title: 'Lobby is down', reason: 'connection refused' });
    expect(down.event.id).not.toBe(item.event.id);
  });

  it('words durations in the two largest units', () => {
    expect([formatDuration(42_000), formatDuration(90 * 60_000), formatDuration(120 * 60_000)]).toEqual([
      '42 s',
      '1 h 30 min',
      '2 h',
    ]);
  });

  it('reminds one channel that a monitor is still down, and sums up a flap that calmed down', () => {
    const reminder = reminderItem(monitor, 'nch_a', { k: 2, at: T + 60 * 60_000 }, 'evt_r');
    expect(reminder).toMatchObject({
      only: ['nch_a'],
      event: { kind: 'monitor.reminder', title: 'Lobby is still down (for 1 h)', reason: 'timed out', downSince: T },
    });
    const flap = flapEndedItem({ ...monitor, state: 'up' } as Monitor, 'nch_a', 'evt_f', {
      changes: 4,
      sinceAt: T,
      lastChange: T + 180_000,
      windowMs: 600_000,
      previousState: 'down',
    });
    expect(flap.event).toMatchObject({
      at: T + 780_000,
      severity: 'ok',
      title: 'Lobby stopped flapping after 4 changes in 3 min; now up',
      flap: { ended: true },
    });
  });
});

describe('other events', () => {
  it('names a certificate’s host and its days left, or that it expired', () => {
    const expiring = certificateItem(
      monitor,
      { organizationId: 'org_a', checkedAt: T, validTo: '2026-03-11T12:00:00Z', daysLeft: 1, error: null },
      ['nch_a'],
    );
    expect(expiring.event).toMatchObject({
      kind: 'tls.expiring',
      severity: 'warning',
      title: 'The certificate of mc.example expires in 1 day',
      tls: { host: 'mc.example', daysLeft: 1 },
    });
    const expired = certificateItem(
      monitor,
      { organizationId: 'org_a', checkedAt: T, validTo: null, daysLeft: null, error: 'certificate has expired' },
      ['nch_a'],
    );
    expect(expired.event).toMatchObject({
      kind: 'tls.expired',
      severity: 'critical',
      title: 'The certificate of mc.example has expired',
      tls: { expiresAt: T, daysLeft: 0 },
    });
  });

  it('tells a relay offline and back, one id per outage', () => {
    const relay = { id: 'rly_1', organizationId: 'org_a', key: 'attic', name: 'Attic' } as Relay;
    const offline = relayOfflineItem(relay, ['pg_1'], T - 90_000, T);
    expect(offline).toMatchObject({
      subject: { pageIds: ['pg_1'] },
      event: { kind: 'relay.offline', severity: 'warning', title: 'Relay Attic is offline' },
    });
    const back = relayBackItem(relay, [], T, 300_000, T + 300_000);
    expect(back.event).toMatchObject({ kind: 'relay.back', severity: 'ok', relay: { key: 'attic' } });
    expect(back.event.id).not.toBe(offline.event.id);
  });

  it('tells an incident created, updated by a new entry, and resolved; a new title is not news', () => {
    const page = { id: 'pg_1', organizationId: 'org_a' } as Page;
    const open = {
      id: 'inc_1',
      title: 'API slow',
      status: 'investigating',
      impact: 'minor',
      startedAt: T,
      resolvedAt: null,
      updates: [{ at: T, status: 'investigating', message: 'Looking' }],
    } as unknown as Incident;
    expect(incidentNotice(null, open, T)).toEqual({ kind: 'incident.created', at: T });
    expect(incidentNotice(open, { ...open, title: 'API very slow' }, T + 1)).toBeNull();
    const resolved = {
      ...open,
      status: 'resolved',
      resolvedAt: T + 60_000,
      updates: [...open.updates, { at: T + 60_000, status: 'resolved', message: 'Fixed' }],
    } as Incident;
    const notice = incidentNotice(open, resolved, T + 60_000);
    expect(notice).toEqual({ kind: 'incident.resolved', at: T + 60_000 });
    expect(incidentItem(page, resolved, notice as NonNullable<typeof notice>).event).toMatchObject({
      severity: 'ok',
      title: 'Resolved: API slow',
      reason: 'Fixed',
    });
  });
});
