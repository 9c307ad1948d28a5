// The player event builders alone: a rule's fact in, the event a receiver reads out.
import { describe, expect, it } from 'vitest';
import { EMPTY_PLAYER_ALERT_STATE, evaluatePlayerAlerts } from '../../domain/player-alerts.js';
import { playerItem } from './players.js';

const T = Date.UTC(2026, 2, 10, 12);
const MIN = 60_000;
const lobby = {
  id: 'mon_1',
  organizationId: 'org_a',
  key: 'lobby',
  name: 'Lobby',
  type: 'minecraft-java',
  state: 'up',
} as const;
const live = { players: 100, max: 100, queue: null };

describe('player events', () => {
  it('titles a full server with its count and how long, as a warning with a stable id', () => {
    const fact = {
      kind: 'alert',
      rule: 'full',
      since: T,
      at: T + 10 * MIN,
      live,
      settings: { fullForMin: 10 },
    } as const;
    const item = playerItem(lobby, fact);
    expect(item.event).toMatchObject({
      kind: 'players.alert',
      severity: 'warning',
      title: 'Lobby is full (100/100) for 10 min',
      playerRule: { rule: 'full', since: T },
      monitor: { key: 'lobby', players: { online: 100, max: 100 } },
    });
    expect(item.subject).toEqual({ monitorId: 'mon_1', pageIds: null });
    expect(playerItem(lobby, { ...fact, at: T + 11 * MIN }).event.id).toBe(item.event.id);
    const ok = playerItem(lobby, { ...fact, kind: 'ok', live: { ...live, players: 90 } });
    expect(ok.event).toMatchObject({ kind: 'players.ok', severity: 'ok', title: 'Lobby is no longer full (90/100)' });
    expect(ok.event.id).not.toBe(item.event.id);
  });

  it('tells a queue and a band in words', () => {
    const queue = { kind: 'alert', rule: 'queue', since: T, at: T + 5 * MIN, settings: { queueAbove: 50 } } as const;
    expect(playerItem(lobby, { ...queue, live: { ...live, queue: 80 } }).event.title).toBe(
      'Lobby has a queue of 80 for 5 min',
    );
    const band = {
      ...queue,
      rule: 'band',
      settings: { band: { min: 5, max: 50 } },
      live: { ...live, players: 2 },
    } as const;
    expect(playerItem(lobby, band).event).toMatchObject({
      title: 'Lobby has 2/100 players, outside its band, for 5 min',
      reason: expect.stringContaining('The band is 5 to 50 players'),
    });
  });

  it('announces a map change as info', () => {
    const { facts } = evaluatePlayerAlerts(
      { changes: ['map'] },
      { ...EMPTY_PLAYER_ALERT_STATE, last: { map: 'de_inferno' } },
      {
        at: T,
        ok: true,
        data: { map: 'de_dust2' },
      },
    );
    const [fact] = facts;
    if (!fact) throw new Error('expected a fact');
    expect(playerItem(lobby, fact).event).toMatchObject({
      kind: 'game.changed',
      severity: 'info',
      title: 'Lobby: map changed to de_dust2',
      reason: 'Was de_inferno.',
      gameChange: { field: 'map', from: 'de_inferno', to: 'de_dust2' },
    });
  });

  it('announces a wipe by when it happened', () => {
    const fact = {
      kind: 'changed',
      field: 'wipe',
      from: '2026-11-19T18:00:00.000Z',
      to: '2026-11-26T18:00:00.000Z',
      at: T,
    } as const;
    expect(playerItem(lobby, fact).event).toMatchObject({
      kind: 'game.changed',
      title: 'Lobby was wiped',
      reason: 'Wiped at 2026-11-26 18:00 UTC; the wipe before was at 2026-11-19 18:00 UTC.',
      gameChange: { field: 'wipe', to: '2026-11-26T18:00:00.000Z' },
    });
  });
});
