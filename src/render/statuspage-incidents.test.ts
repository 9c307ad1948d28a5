// Statuspage's public API v2 from a snapshot: what Warden's incidents and maintenance become in its words.
import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, FIXTURE_NOW, largeSnapshot, maintenanceSnapshot } from '../../test/fakes/snapshots.js';
import { type Any, componentNamed, MINUTE, view } from '../../test/statuspage-views.js';

describe('incidents and maintenance', () => {
  it('lists unresolved incidents with their updates newest first, the components they name as whole objects', () => {
    const snapshot = activeIncidentSnapshot();
    const [lag] = view(snapshot, 'unresolved').incidents;
    expect(lag).toMatchObject({
      id: 'inc_lag',
      name: 'Lag spikes on Survival',
      status: 'monitoring',
      impact: 'minor',
      created_at: new Date(FIXTURE_NOW - 55 * MINUTE).toISOString(),
      started_at: new Date(FIXTURE_NOW - 55 * MINUTE).toISOString(),
      updated_at: new Date(FIXTURE_NOW - 5 * MINUTE).toISOString(),
      monitoring_at: new Date(FIXTURE_NOW - 5 * MINUTE).toISOString(),
      resolved_at: null,
      shortlink: 'https://status.blockhaven.example/',
      page_id: 'page_blockhaven',
    });
    expect(lag.incident_updates.map((u: Any) => [u.id, u.status, u.incident_id])).toEqual([
      ['upd_3', 'monitoring', 'inc_lag'],
      ['upd_2', 'identified', 'inc_lag'],
      ['upd_1', 'investigating', 'inc_lag'],
    ]);
    expect(lag.incident_updates[1].body).toBe(
      'A runaway redstone clock near spawn was pinning the main thread.\nIt has been removed.',
    );
    expect(lag.components).toEqual([componentNamed(snapshot, 'Survival')]);
    expect(view(snapshot, 'summary').incidents).toEqual([lag]);
  });

  it('lists resolved incidents too in incidents.json, newest first', () => {
    const incidents = view(activeIncidentSnapshot(), 'incidents').incidents;
    expect(incidents.map((i: Any) => [i.id, i.status])).toEqual([
      ['inc_lag', 'monitoring'],
      ['inc_proxy', 'resolved'],
      ['inc_web', 'resolved'],
    ]);
    expect(incidents[1].resolved_at).toBe(
      new Date(FIXTURE_NOW - 3 * 86_400_000 - 3_600_000 - 18 * MINUTE).toISOString(),
    );
    expect(incidents[1].monitoring_at).toBeNull();
    expect(view(largeSnapshot(), 'unresolved').incidents).toEqual([]);
  });

  it('gives maintenance windows as scheduled maintenances: in progress and upcoming, with their schedule', () => {
    const snapshot = maintenanceSnapshot();
    const summary = view(snapshot, 'summary').scheduled_maintenances;
    expect(summary.map((m: Any) => [m.id, m.status, m.impact])).toEqual([
      ['mnt_weekly', 'in_progress', 'maintenance'],
      ['mnt_db', 'scheduled', 'maintenance'],
    ]);
    expect(summary[0]).toMatchObject({
      scheduled_for: new Date(FIXTURE_NOW - 35 * MINUTE).toISOString(),
      scheduled_until: new Date(FIXTURE_NOW + 10 * MINUTE).toISOString(),
      resolved_at: null,
    });
    expect(summary[0].incident_updates).toEqual([
      expect.objectContaining({
        status: 'in_progress',
        body: snapshot.maintenance.active[0]!.description,
        incident_id: 'mnt_weekly',
      }),
    ]);
    expect(summary[1].components.map((c: Any) => c.name)).toEqual(['Survival', 'Creative', 'Website']);
    expect(view(snapshot, 'upcoming').scheduled_maintenances.map((m: Any) => m.id)).toEqual(['mnt_db']);
    expect(view(snapshot, 'active').scheduled_maintenances.map((m: Any) => m.id)).toEqual(['mnt_weekly']);
    // The full list is newest scheduled first, as Statuspage's.
    expect(view(snapshot, 'maintenances').scheduled_maintenances.map((m: Any) => m.id)).toEqual([
      'mnt_db',
      'mnt_weekly',
    ]);
  });

  it('marks updates delivered to subscribers when the page takes subscriptions', () => {
    const snapshot = activeIncidentSnapshot();
    expect(view(snapshot, 'unresolved').incidents[0].incident_updates[0].deliver_notifications).toBe(false);
    snapshot.page.subscribe = { email: true, webhook: true, discord: true, slack: true };
    expect(view(snapshot, 'unresolved').incidents[0].incident_updates[0].deliver_notifications).toBe(true);
  });
});
