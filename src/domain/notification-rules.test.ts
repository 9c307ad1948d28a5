// A channel's scope and timing rules, with plain values: which events it gets, holds, reminders, maintenance cover.
import { describe, expect, it } from 'vitest';
import type { NotificationRules } from './notification.js';
import {
  channelWants,
  type EventScope,
  flapRule,
  holdMs,
  reminderDue,
  underMaintenance,
} from './notification-rules.js';

const down = (over: Partial<EventScope> = {}): EventScope => ({
  kind: 'monitor.down',
  monitor: { key: 'lobby', notify: null },
  pages: [{ slug: 'status', notify: null }],
  groups: ['Survival'],
  relayMonitorKeys: [],
  ...over,
});
const incident = (over: Partial<EventScope> = {}): EventScope => ({
  kind: 'incident.created',
  monitor: null,
  pages: [{ slug: 'status', notify: null }],
  groups: [],
  relayMonitorKeys: [],
  ...over,
});
const relay: EventScope = { kind: 'relay.offline', monitor: null, pages: [], groups: [], relayMonitorKeys: ['panel'] };
const wants = (rules: NotificationRules, scope: EventScope, named: string[] = [], key = 'ops') =>
  channelWants({ key, rules }, scope, new Set(named));

describe('channel scope', () => {
  it('gives a channel without scope, named by nothing, every event its kinds want', () => {
    expect(wants({}, down())).toBe(true);
    expect(wants({}, incident())).toBe(true);
    expect(wants({}, relay)).toBe(true);
    expect(wants({ events: ['monitor.recovered'] }, down())).toBe(false);
  });

  it('scopes by monitors, pages and groups, any one of them matching', () => {
    expect(wants({ monitors: ['lobby'] }, down())).toBe(true);
    expect(wants({ monitors: ['proxy'] }, down())).toBe(false);
    expect(wants({ monitors: ['proxy'], pages: ['status'] }, down())).toBe(true);
    expect(wants({ pages: ['other'] }, down())).toBe(false);
    expect(wants({ groups: ['Survival'] }, down())).toBe(true);
    expect(wants({ groups: ['Creative'] }, down())).toBe(false);
    // An empty list is a scope that takes nothing, not "all".
    expect(wants({ monitors: [] }, down())).toBe(false);
    expect(wants({ pages: ['status'], events: ['monitor.recovered'] }, down())).toBe(false);
  });

  it('gives incidents and maintenance by page, group or naming, never by monitor', () => {
    expect(wants({ pages: ['status'] }, incident())).toBe(true);
    expect(wants({ monitors: ['lobby'] }, incident())).toBe(false);
    expect(wants({ groups: ['Survival'] }, incident({ groups: ['Survival'] }))).toBe(true);
    expect(wants({ monitors: ['lobby'] }, incident({ pages: [{ slug: 'status', notify: ['ops'] }] }))).toBe(true);
  });

  it('gives a relay event to unscoped channels and to those whose monitors include one on the relay', () => {
    expect(wants({ monitors: ['panel'] }, relay)).toBe(true);
    expect(wants({ monitors: ['lobby'] }, relay)).toBe(false);
    expect(wants({ pages: ['status'] }, relay)).toBe(false);
    // Named by a monitor (so scoped), but relays are not named: nothing.
    expect(wants({}, relay, ['ops'])).toBe(false);
  });

  it('makes a named channel scoped: it gets what names it, and nothing else', () => {
    expect(wants({}, down({ monitor: { key: 'lobby', notify: ['ops'] } }), ['ops'])).toBe(true);
    expect(wants({}, down({ pages: [{ slug: 'status', notify: ['ops'] }] }), ['ops'])).toBe(true);
    expect(wants({}, down(), ['ops'])).toBe(false);
    // Naming adds to a channel's own scope.
    expect(wants({ monitors: ['proxy'] }, down({ monitor: { key: 'lobby', notify: ['ops'] } }), ['ops'])).toBe(true);
    // Another channel's naming leaves this one unscoped.
    expect(wants({}, down({ monitor: { key: 'lobby', notify: ['other'] } }), ['other'])).toBe(true);
  });

  it('lets a timing rule bring its own kind, whatever `events` lists', () => {
    expect(
      wants({ events: ['monitor.down'], flap: { changes: 5, windowMin: 10 } }, down({ kind: 'monitor.flapping' })),
    ).toBe(true);
    expect(wants({ events: ['monitor.down'] }, down({ kind: 'monitor.flapping' }))).toBe(false);
    expect(wants({ events: ['monitor.down'], remindEveryMin: 30 }, down({ kind: 'monitor.reminder' }))).toBe(true);
  });
});

describe('timing rules', () => {
  it('holds state changes only', () => {
    expect(holdMs({ holdSec: 60 }, 'monitor.down')).toBe(60_000);
    expect(holdMs({ holdSec: 60 }, 'monitor.recovered')).toBe(60_000);
    expect(holdMs({ holdSec: 60 }, 'incident.created')).toBe(0);
    expect(holdMs({}, 'monitor.down')).toBe(0);
  });

  it('dues the latest reminder only, the k-th at downSince + k × N', () => {
    const since = 1_000_000;
    expect(reminderDue({}, since, since + 10 * 3_600_000)).toBeNull();
    expect(reminderDue({ remindEveryMin: 30 }, since, since + 29 * 60_000)).toBeNull();
    expect(reminderDue({ remindEveryMin: 30 }, since, since + 30 * 60_000)).toEqual({
      k: 1,
      at: since + 30 * 60_000,
      everyMs: 1_800_000,
    });
    expect(reminderDue({ remindEveryMin: 30 }, since, since + 100 * 60_000)).toMatchObject({
      k: 3,
      at: since + 90 * 60_000,
    });
  });

  it('takes the flap defaults', () => {
    expect(flapRule({})).toBeNull();
    expect(flapRule({ flap: { changes: 6, windowMin: 15 } })).toEqual({ changes: 6, windowMin: 15, windowMs: 900_000 });
  });

  it('covers a monitor by a window in progress on a page showing it, naming its component or page-wide', () => {
    const showing = [{ pageId: 'pg_a', componentId: 'cmp_lobby' }];
    const window = { pageId: 'pg_a', startsAt: 100, endsAt: 200, componentIds: ['cmp_lobby'] };
    expect(underMaintenance(150, 'mon_lobby', showing, [window])).toBe(true);
    expect(underMaintenance(200, 'mon_lobby', showing, [window])).toBe(false);
    expect(underMaintenance(99, 'mon_lobby', showing, [window])).toBe(false);
    expect(underMaintenance(150, 'mon_lobby', showing, [{ ...window, componentIds: ['cmp_other'] }])).toBe(false);
    expect(underMaintenance(150, 'mon_lobby', showing, [{ ...window, componentIds: [] }])).toBe(true);
    expect(underMaintenance(150, 'mon_lobby', showing, [{ ...window, pageId: 'pg_b', componentIds: [] }])).toBe(false);
  });

  it('covers a monitor a window names wherever it is shown, and a window naming monitors is not page-wide', () => {
    const window = { pageId: 'pg_b', startsAt: 100, endsAt: 200, componentIds: [], monitorIds: ['mon_db'] };
    expect(underMaintenance(150, 'mon_db', [], [window])).toBe(true);
    expect(underMaintenance(150, 'mon_db', [{ pageId: 'pg_a', componentId: 'cmp_db' }], [window])).toBe(true);
    expect(underMaintenance(250, 'mon_db', [], [window])).toBe(false);
    // The lobby is on the window's page, but the window names a monitor only: not the whole page.
    expect(underMaintenance(150, 'mon_lobby', [{ pageId: 'pg_b', componentId: 'cmp_lobby' }], [window])).toBe(false);
  });
});
