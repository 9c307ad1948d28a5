import { describe, expect, it } from 'vitest';
import { BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { alertPairing } from './alert-pairing.js';
import type { NotificationEvent } from './channel.js';

const monitorEvent = (kind: NotificationEvent['kind'], state: 'up' | 'down' | 'degraded'): NotificationEvent => ({
  ...DOWN_EVENT,
  id: `evt_${kind}`,
  kind,
  monitor: { ...DOWN_EVENT.monitor!, state },
});

describe('alertPairing', () => {
  it('pairs a down and its recovery under the monitor, whatever their event ids', () => {
    const down = alertPairing(DOWN_EVENT);
    expect(down).toEqual({ action: 'open', key: 'warden:acme:monitor:mon_1', notice: false });
    expect(alertPairing(RECOVERED_EVENT)).toEqual({ ...down, action: 'close' });
    expect(alertPairing(monitorEvent('monitor.degraded', 'degraded'))).toEqual(down);
    expect(alertPairing(monitorEvent('monitor.reminder', 'down'))).toEqual(down);
  });

  it('pairs a player alert with its clearing per monitor and rule; a game change is a notice', () => {
    const full = { ...monitorEvent('players.alert', 'up'), playerRule: { rule: 'full', since: 0 } };
    expect(alertPairing(full)).toEqual({ action: 'open', key: 'warden:acme:players:mon_1:full', notice: false });
    expect(alertPairing({ ...full, id: 'evt_ok', kind: 'players.ok' })).toEqual({
      action: 'close',
      key: 'warden:acme:players:mon_1:full',
      notice: false,
    });
    expect(alertPairing({ ...full, playerRule: { rule: 'queue', since: 0 } }).key).toBe(
      'warden:acme:players:mon_1:queue',
    );
    expect(alertPairing(monitorEvent('game.changed', 'up'))).toMatchObject({ action: 'open', notice: true });
  });

  it("a flap's summary closes when it settled up, and keeps the alert open otherwise", () => {
    expect(alertPairing(monitorEvent('monitor.flapping', 'up')).action).toBe('close');
    expect(alertPairing(monitorEvent('monitor.flapping', 'down')).action).toBe('open');
  });

  it('keys relays, incidents, maintenance and certificates by what they are about', () => {
    const relay = { ...BARE_EVENT, relay: { key: 'eu-1', name: 'EU 1' } };
    expect(alertPairing({ ...relay, kind: 'relay.offline' })).toMatchObject({
      action: 'open',
      key: 'warden:acme:relay:eu-1',
    });
    expect(alertPairing({ ...relay, kind: 'relay.back' })).toMatchObject({
      action: 'close',
      key: 'warden:acme:relay:eu-1',
    });
    expect(alertPairing(INCIDENT_EVENT)).toMatchObject({ action: 'open', key: 'warden:acme:incident:inc_1' });
    expect(alertPairing({ ...INCIDENT_EVENT, kind: 'incident.resolved' }).action).toBe('close');
    const window = { ...BARE_EVENT, maintenance: { id: 'mnt_1', title: 'Upgrade', startsAt: 0, endsAt: 1 } };
    expect(alertPairing({ ...window, kind: 'maintenance.started' })).toEqual({
      action: 'open',
      key: 'warden:acme:maintenance:mnt_1',
      notice: true,
    });
    expect(alertPairing({ ...window, kind: 'maintenance.ended' })).toMatchObject({ action: 'close', notice: true });
    const tls = { ...BARE_EVENT, tls: { host: 'play.acme.test', expiresAt: 0, daysLeft: 3 } };
    expect(alertPairing({ ...tls, kind: 'tls.expiring' })).toMatchObject({
      action: 'open',
      key: 'warden:acme:tls:play.acme.test',
    });
  });

  it('a test opens an alert of its own, and keys stay within 255 characters', () => {
    expect(alertPairing(BARE_EVENT)).toMatchObject({ action: 'open', key: 'warden:acme:test:evt_test_1' });
    const long = {
      ...BARE_EVENT,
      kind: 'tls.expired' as const,
      tls: { host: 'a'.repeat(300), expiresAt: 0, daysLeft: -1 },
    };
    expect(alertPairing(long).key).toHaveLength(255);
  });
});
