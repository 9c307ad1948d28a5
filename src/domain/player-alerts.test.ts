import { describe, expect, it } from 'vitest';
import {
  EMPTY_PLAYER_ALERT_STATE,
  evaluatePlayerAlerts,
  type PlayerAlertState,
  type PlayerAlerts,
  parsePlayerAlertState,
  playerAlertsSchema,
} from './player-alerts.js';

const MIN = 60_000;
const up = (at: number, data: Record<string, unknown>) => ({ at, ok: true, data });

/** Feeds the results in order, the state through JSON between each (as the store keeps it). */
function run(settings: PlayerAlerts, results: { at: number; ok: boolean; data: Record<string, unknown> | null }[]) {
  let state: PlayerAlertState = EMPTY_PLAYER_ALERT_STATE;
  const facts = [];
  for (const result of results) {
    const next = evaluatePlayerAlerts(settings, state, result);
    state = parsePlayerAlertState(JSON.stringify(next.state));
    facts.push(...next.facts);
  }
  return { state, facts };
}

describe('player alerts', () => {
  it('alerts once a server has been full for the hold time, and once only', () => {
    const full = { players: 100, maxPlayers: 100 };
    const { facts } = run(
      { fullForMin: 10 },
      [0, 5, 9, 10, 11, 20].map((m) => up(m * MIN, full)),
    );
    expect(facts).toEqual([expect.objectContaining({ kind: 'alert', rule: 'full', since: 0, at: 10 * MIN })]);
  });

  it('forgets a full spell that ends before the hold time', () => {
    const { facts, state } = run({ fullForMin: 10 }, [
      up(0, { players: 100, maxPlayers: 100 }),
      up(5 * MIN, { players: 99, maxPlayers: 100 }),
      up(12 * MIN, { players: 100, maxPlayers: 100 }),
    ]);
    expect(facts).toEqual([]);
    expect(state.held.full).toEqual({ since: 12 * MIN, alerted: false });
  });

  it('says ok when an alerted condition clears, with the spell it ends', () => {
    const { facts, state } = run({ queueAbove: 50, forMin: 2 }, [
      up(0, { players: 10, queue: 80 }),
      up(2 * MIN, { players: 10, queue: 90 }),
      up(3 * MIN, { players: 10, queue: 20 }),
    ]);
    expect(facts.map((f) => [f.kind, 'rule' in f ? f.rule : null, f.at])).toEqual([
      ['alert', 'queue', 2 * MIN],
      ['ok', 'queue', 3 * MIN],
    ]);
    expect(state.held).toEqual({});
  });

  it('holds players outside the band for forMin (5 minutes by default)', () => {
    const { facts } = run({ band: { min: 5, max: 50 } }, [
      up(0, { players: 2 }),
      up(4 * MIN, { players: 1 }),
      up(5 * MIN, { players: 60 }),
    ]);
    expect(facts).toEqual([expect.objectContaining({ kind: 'alert', rule: 'band', since: 0, at: 5 * MIN })]);
  });

  it('keeps a condition through a restart and failed checks, without firing again', () => {
    const settings = { fullForMin: 1 };
    const first = run(settings, [up(0, { players: 8, maxPlayers: 8 }), up(MIN, { players: 8, maxPlayers: 8 })]);
    expect(first.facts).toHaveLength(1);
    let state = parsePlayerAlertState(JSON.stringify(first.state));
    const down = evaluatePlayerAlerts(settings, state, { at: 2 * MIN, ok: false, data: null });
    expect(down.facts).toEqual([]);
    state = parsePlayerAlertState(JSON.stringify(down.state));
    const again = evaluatePlayerAlerts(settings, state, up(3 * MIN, { players: 8, maxPlayers: 8 }));
    expect(again.facts).toEqual([]);
    expect(again.state.held.full).toEqual({ since: 0, alerted: true });
  });

  it('announces a change of the listed fields only, compared with the last successful result', () => {
    const { facts } = run({ changes: ['map'] }, [
      up(0, { players: 1, map: 'de_inferno', version: '1.0' }),
      { at: MIN, ok: false, data: null },
      up(2 * MIN, { players: 1, map: 'de_dust2', version: '1.1' }),
      up(3 * MIN, { players: 1, map: 'de_dust2', version: '1.1' }),
    ]);
    expect(facts).toEqual([{ kind: 'changed', field: 'map', from: 'de_inferno', to: 'de_dust2', at: 2 * MIN }]);
  });

  it('announces a wipe from the time the server says it was last wiped, from and to as ISO times', () => {
    const before = Date.UTC(2026, 10, 19, 18);
    const after = Date.UTC(2026, 10, 26, 18);
    const { facts } = run({ changes: ['wipe'] }, [
      up(0, { players: 1, wipedAt: before }),
      up(MIN, { players: 1 }),
      up(2 * MIN, { players: 0, wipedAt: after }),
      up(3 * MIN, { players: 2, wipedAt: after }),
    ]);
    expect(facts).toEqual([
      {
        kind: 'changed',
        field: 'wipe',
        from: '2026-11-19T18:00:00.000Z',
        to: '2026-11-26T18:00:00.000Z',
        at: 2 * MIN,
      },
    ]);
  });

  it('does not announce the first version it sees', () => {
    expect(run({ changes: ['version'] }, [up(0, { version: '1.0' })]).facts).toEqual([]);
  });

  it('reads players as { online, max } too', () => {
    const { facts } = run({ fullForMin: 1 }, [
      up(0, { players: { online: 4, max: 4 } }),
      up(MIN, { players: { online: 4, max: 4 } }),
    ]);
    expect(facts).toHaveLength(1);
  });

  it('tells a server that answers but has nobody on, from a usual of 3 or more, and when players are back', () => {
    const settings = { emptyFromUsual: true, forMin: 10 };
    let state = EMPTY_PLAYER_ALERT_STATE;
    const step = (at: number, players: number, usual: number | null) => {
      const next = evaluatePlayerAlerts(settings, state, up(at, { players, maxPlayers: 50 }), usual);
      state = parsePlayerAlertState(JSON.stringify(next.state));
      return next.facts;
    };
    expect(step(0, 0, 2.9)).toEqual([]);
    expect(state.held.empty).toBeUndefined();
    expect(step(MIN, 0, 12)).toEqual([]);
    // Once begun, the spell needs no usual figure to go on.
    expect(step(11 * MIN, 0, null)).toEqual([
      expect.objectContaining({ kind: 'alert', rule: 'empty', since: MIN, at: 11 * MIN, usual: 12 }),
    ]);
    expect(step(12 * MIN, 0, null)).toEqual([]);
    expect(step(13 * MIN, 4, null)).toEqual([expect.objectContaining({ kind: 'ok', rule: 'empty', since: MIN })]);
    // A down server is not an empty one.
    expect(
      evaluatePlayerAlerts(settings, EMPTY_PLAYER_ALERT_STATE, { at: 0, ok: false, data: null }, 12).state.held,
    ).toEqual({});
  });

  it('refuses settings out of range', () => {
    expect(playerAlertsSchema.safeParse({ fullForMin: 0 }).success).toBe(false);
    expect(playerAlertsSchema.safeParse({ band: { min: 10, max: 5 } }).success).toBe(false);
    expect(playerAlertsSchema.safeParse({ changes: ['motd'] }).success).toBe(false);
    expect(playerAlertsSchema.safeParse({ fullForMin: 10, changes: ['version', 'map'] }).success).toBe(true);
  });

  it('reads a damaged stored state as empty', () => {
    expect(parsePlayerAlertState('{nope')).toEqual(EMPTY_PLAYER_ALERT_STATE);
  });
});
