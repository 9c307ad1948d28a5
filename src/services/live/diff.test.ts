// The live stream's messages from two snapshots: each kind of change, the order, shape changes, nothing for no change.
import { describe, expect, it } from 'vitest';
import {
  activeIncidentSnapshot,
  FIXTURE_NOW,
  maintenanceSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
} from '../../../test/fakes/snapshots.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { diffSnapshots } from './diff.js';
import { liveMessageSchema } from './messages.js';

/** The same page, rebuilt later. */
const later = (snapshot: Snapshot, ms = 30_000): Snapshot => ({
  ...structuredClone(snapshot),
  generatedAt: snapshot.generatedAt + ms,
});
const kinds = (messages: ReturnType<typeof diffSnapshots>) =>
  messages.map((m) =>
    'change' in m ? `${m.type}:${m.change}` : m.type === 'monitor.update' ? `${m.type}:${m.component.id}` : m.type,
  );

describe('diffSnapshots', () => {
  it('says nothing when only the build time moved', () => {
    const a = operationalSnapshot();
    expect(diffSnapshots(a, later(a))).toEqual([]);
  });

  it('sends the component, the players, then the overall state when a server goes down', () => {
    const before = operationalSnapshot();
    const after = { ...partialOutageSnapshot(), generatedAt: FIXTURE_NOW + 1000 };
    const messages = diffSnapshots(before, after);
    expect(kinds(messages)).toEqual(['monitor.update:survival', 'totals', 'overall']);
    const [update, totals, overall] = messages;
    expect(update).toMatchObject({
      type: 'monitor.update',
      at: FIXTURE_NOW + 1000,
      previousState: 'operational',
      component: { id: 'survival', state: 'down', monitorState: 'down' },
    });
    expect(update && 'component' in update && 'days' in update.component).toBe(false);
    expect(totals).toEqual({ type: 'totals', at: FIXTURE_NOW + 1000, players: 63, maxPlayers: 600 });
    expect(overall).toEqual({
      type: 'overall',
      at: FIXTURE_NOW + 1000,
      state: 'degraded',
      label: 'Partial outage: 1 of 6 components down',
      previous: { state: 'operational', label: 'All systems operational' },
    });
    for (const message of messages) expect(liveMessageSchema.parse(message)).toEqual(message);
  });

  it('sends live data changes with the state unchanged', () => {
    const before = operationalSnapshot();
    const after = later(before);
    after.components[0]!.live = { ...after.components[0]!.live!, latencyMs: 99, checkedAt: after.generatedAt };
    const messages = diffSnapshots(before, after);
    expect(kinds(messages)).toEqual(['monitor.update:lobby']);
    expect(messages[0]).toMatchObject({
      previousState: 'operational',
      component: { state: 'operational', live: { latencyMs: 99 } },
    });
  });

  it('sends a changed join button or badge', () => {
    const before = operationalSnapshot();
    const after = later(before);
    after.components[0]!.join = { kind: 'copy', label: 'play.example.com', address: 'play.example.com' };
    after.components[0]!.badges = [{ kind: 'full' }];
    const messages = diffSnapshots(before, after);
    expect(kinds(messages)).toEqual(['monitor.update:lobby']);
    expect(messages[0]).toMatchObject({
      component: { join: { address: 'play.example.com' }, badges: [{ kind: 'full' }] },
    });
    expect(liveMessageSchema.parse(messages[0])).toEqual(messages[0]);
  });

  it('sends a component whose parent went down or came back, on a page that shows it (showUnreachable)', () => {
    const before = operationalSnapshot();
    const held = later(before);
    held.components[0]!.unreachable = { parent: 'Router' };
    const messages = diffSnapshots(before, held);
    expect(kinds(messages)).toEqual(['monitor.update:lobby']);
    expect(messages[0]).toMatchObject({ component: { unreachable: { parent: 'Router' } } });
    expect(liveMessageSchema.parse(messages[0])).toEqual(messages[0]);
    expect(kinds(diffSnapshots(held, later(before, 60_000)))).toEqual(['monitor.update:lobby']);
  });

  it('tells incidents opened, updated, resolved and removed', () => {
    const base = activeIncidentSnapshot();
    const opened = later(base);
    opened.activeIncidents.push({ ...structuredClone(base.activeIncidents[0]!), id: 'inc_new', title: 'New one' });
    expect(kinds(diffSnapshots(base, opened))).toEqual(['incident:opened']);

    const updated = later(base);
    updated.activeIncidents[0]!.updates.push({
      id: 'upd_4',
      status: 'monitoring',
      message: 'Still fine.',
      at: updated.generatedAt,
    });
    expect(kinds(diffSnapshots(base, updated))).toEqual(['incident:updated']);

    const resolved = later(base);
    const incident = resolved.activeIncidents.shift()!;
    resolved.recentIncidents.unshift({ ...incident, status: 'resolved', resolvedAt: resolved.generatedAt });
    const messages = diffSnapshots(base, resolved);
    expect(kinds(messages)).toEqual(['incident:resolved']);
    expect(messages[0]).toMatchObject({ incident: { id: 'inc_lag', status: 'resolved' } });

    const aged = later(base);
    aged.recentIncidents.pop();
    expect(kinds(diffSnapshots(base, aged))).toEqual(['incident:removed']);
  });

  it('tells maintenance scheduled, started, updated, ended and removed', () => {
    const base = maintenanceSnapshot();
    const scheduled = later(base);
    scheduled.maintenance.upcoming.push({ ...base.maintenance.upcoming[0]!, id: 'mnt_new' });
    expect(kinds(diffSnapshots(base, scheduled))).toEqual(['maintenance:scheduled']);

    const started = later(base);
    const next = started.maintenance.upcoming.shift()!;
    started.maintenance.active.push({ ...next, status: 'in_progress' });
    expect(kinds(diffSnapshots(base, started))).toEqual(['maintenance:started']);

    const edited = later(base);
    edited.maintenance.upcoming[0]!.title = 'Database upgrade (moved)';
    expect(kinds(diffSnapshots(base, edited))).toEqual(['maintenance:updated']);

    const ended = later(base, 20 * 60_000);
    ended.maintenance.active = [];
    expect(kinds(diffSnapshots(base, ended))).toEqual(['maintenance:ended']);

    const cancelled = later(base);
    cancelled.maintenance.upcoming = [];
    expect(kinds(diffSnapshots(base, cancelled))).toEqual(['maintenance:removed']);
  });

  it('sends a whole snapshot when the page changes shape', () => {
    const base = operationalSnapshot();
    const renamed = later(base);
    renamed.components[1]!.name = 'Survival (1.21)';
    const added = later(base);
    added.components.push({ ...structuredClone(base.components[0]!), id: 'new', name: 'New' });
    const retitled = later(base);
    retitled.page.title = 'Blockhaven';
    for (const next of [renamed, added, retitled]) {
      const messages = diffSnapshots(base, next);
      expect(kinds(messages)).toEqual(['snapshot']);
      expect(messages[0]).toEqual({ type: 'snapshot', at: next.generatedAt, snapshot: next });
    }
  });
});
