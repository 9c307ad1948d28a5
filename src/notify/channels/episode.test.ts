import { describe, expect, it } from 'vitest';
import { AT, BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { episodeKey } from './episode.js';

describe('episodeKey', () => {
  it("pairs a monitor's down, its reminders and its recovery by when the outage began", () => {
    const down = episodeKey(DOWN_EVENT);
    expect(down).toBe(`monitor-mon_1-${AT}`);
    expect(episodeKey({ ...RECOVERED_EVENT, at: AT + 252_000 })).toBe(down);
    expect(episodeKey({ ...DOWN_EVENT, kind: 'monitor.reminder', at: AT + 600_000, downSince: AT })).toBe(down);
    expect(episodeKey({ ...DOWN_EVENT, at: AT + 1 })).not.toBe(down);
  });

  it("keys an incident's, a maintenance's, a relay's and a certificate's events by what they are about", () => {
    expect(episodeKey(INCIDENT_EVENT)).toBe('incident-inc_1');
    expect(episodeKey({ ...INCIDENT_EVENT, id: 'evt_inc_2', kind: 'incident.resolved' })).toBe('incident-inc_1');
    const window = { id: 'mnt_1', title: 'Upgrade', startsAt: AT, endsAt: AT + 1 };
    expect(episodeKey({ ...BARE_EVENT, kind: 'maintenance.started', maintenance: window })).toBe('maintenance-mnt_1');
    expect(episodeKey({ ...BARE_EVENT, kind: 'relay.offline', relay: { key: 'eu', name: 'EU' } })).toBe('relay-eu');
    const tls = { host: 'play.acme.test', expiresAt: AT, daysLeft: 3 };
    expect(episodeKey({ ...BARE_EVENT, kind: 'tls.expiring', tls })).toBe('tls-play.acme.test');
  });

  it("is the event's own id for anything else", () => {
    expect(episodeKey(BARE_EVENT)).toBe('evt_test_1');
  });
});
