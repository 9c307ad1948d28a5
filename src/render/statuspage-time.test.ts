// Statuspage's times and its JSON answer as served: ISO 8601 in the page's zone, and the bytes renderStatuspage writes.
import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, FIXTURE_NOW, maintenanceSnapshot } from '../../test/fakes/snapshots.js';
import type { Snapshot } from '../domain/snapshot.js';
import { isoInZone, renderStatuspage, type StatuspageEndpoint, statuspageView } from './statuspage.js';

// biome-ignore lint/suspicious/noExplicitAny: the answers are read as Statuspage's JSON, whatever its keys.
type Any = any;
const view = (snapshot: Snapshot, endpoint: StatuspageEndpoint): Any =>
  JSON.parse(renderStatuspage(snapshot, endpoint).body as string);

describe('times', () => {
  it("are ISO 8601 with milliseconds and the page's offset at that instant", () => {
    expect(isoInZone(FIXTURE_NOW, 'UTC')).toBe('2026-11-20T14:05:00.000Z');
    expect(isoInZone(FIXTURE_NOW, 'America/Tijuana')).toBe('2026-11-20T06:05:00.000-08:00');
    expect(isoInZone(Date.UTC(2026, 6, 1, 12), 'America/Tijuana')).toBe('2026-07-01T05:00:00.000-07:00');
    expect(isoInZone(FIXTURE_NOW + 123, 'Asia/Kolkata')).toBe('2026-11-20T19:35:00.123+05:30');
    expect(isoInZone(FIXTURE_NOW, 'Europe/London')).toBe('2026-11-20T14:05:00.000+00:00');
  });

  it("use the page's time zone, and UTC for a name nobody knows", () => {
    const snapshot = activeIncidentSnapshot();
    snapshot.page.timeZone = 'Europe/Berlin';
    const summary = view(snapshot, 'summary');
    expect(summary.page.time_zone).toBe('Europe/Berlin');
    expect(summary.page.updated_at).toBe('2026-11-20T15:00:00.000+01:00');
    expect(summary.incidents[0].started_at).toBe('2026-11-20T14:10:00.000+01:00');
    snapshot.page.timeZone = 'Mars/Olympus';
    expect(view(snapshot, 'status').page.time_zone).toBe('UTC');
  });
});

describe('statuspageView', () => {
  it('is what renderStatuspage serializes, as application/json', () => {
    const snapshot = maintenanceSnapshot();
    const rendered = renderStatuspage(snapshot, 'summary');
    expect(rendered.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(rendered.body as string)).toEqual(statuspageView(snapshot, 'summary'));
  });
});
