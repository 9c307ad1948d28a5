// Ingest's step of player alerts on one monitor's state row: the spells move with the result, and end with the alerts.
import { describe, expect, it } from 'vitest';
import { stateRow } from '../../test/contracts/store-fixtures.js';
import { applyPlayerAlerts, type PlayerFacts } from './ingest-players.js';

const full = { at: 60_000, ok: true, data: { players: 8, maxPlayers: 8 } };

describe('player alerts in ingest', () => {
  it('keeps the spell on the row and reports the alert of the monitor', () => {
    const row = stateRow('mon_a', {
      playerAlerts: JSON.stringify({ fullForMin: 1 }),
      playerAlertsState: JSON.stringify({ held: { full: { since: 0, alerted: false } }, last: {} }),
    });
    const found: PlayerFacts = new Map();
    applyPlayerAlerts(row, full, found, null);
    expect(found.get('mon_a')).toEqual([expect.objectContaining({ kind: 'alert', rule: 'full', since: 0 })]);
    expect(JSON.parse(row.playerAlertsState ?? 'null').held.full).toEqual({ since: 0, alerted: true });
  });

  it('ends the spells when the alerts are removed, so ones set again start afresh', () => {
    const row = stateRow('mon_a', {
      playerAlerts: null,
      playerAlertsState: JSON.stringify({ held: { full: { since: 0, alerted: false } }, last: {} }),
    });
    const found: PlayerFacts = new Map();
    applyPlayerAlerts(row, full, found, null);
    expect(found.size).toBe(0);
    expect(row.playerAlertsState).toBeNull();
  });
});
