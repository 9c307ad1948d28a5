import { describe, expect, it } from 'vitest';
import { BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { clip, eventFacts, humanDuration, plainText } from './format.js';

describe('humanDuration', () => {
  it.each([
    [0, '0 s'],
    [400, '0 s'],
    [42_000, '42 s'],
    [60_000, '1 min'],
    [252_000, '4 min 12 s'],
    [7_500_000, '2 h 5 min'],
    [7_200_000, '2 h'],
    [3 * 86_400_000 + 4 * 3_600_000 + 59_000, '3 d 4 h'],
    [-5, '0 s'],
  ])('%d ms → %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});

describe('eventFacts', () => {
  it('a down monitor: the monitor and the page with its link', () => {
    expect(eventFacts(DOWN_EVENT)).toEqual([
      { name: 'Monitor', value: 'Lobby' },
      { name: 'Page', value: 'Acme status', url: 'https://status.acme.test/main' },
    ]);
  });

  it('a recovery: the downtime and the players', () => {
    expect(eventFacts(RECOVERED_EVENT)).toEqual([
      { name: 'Monitor', value: 'Lobby' },
      { name: 'Page', value: 'Acme status', url: 'https://status.acme.test/main' },
      { name: 'Downtime', value: '4 min 12 s' },
      { name: 'Players', value: '12 / 64 online' },
    ]);
  });

  it('an incident, maintenance and a certificate', () => {
    expect(eventFacts(INCIDENT_EVENT)[0]).toEqual({
      name: 'Incident',
      value: 'Login queue delays (investigating, minor)',
    });
    const tls = { ...BARE_EVENT, tls: { host: 'play.acme.test', expiresAt: Date.UTC(2025, 2, 8), daysLeft: 7 } };
    expect(eventFacts(tls)).toEqual([
      { name: 'Certificate', value: 'play.acme.test: expires in 7 days (2025-03-08 00:00 UTC)' },
    ]);
    const window = {
      ...BARE_EVENT,
      maintenance: { id: 'm', title: 'Patch', startsAt: Date.UTC(2025, 2, 2, 1), endsAt: Date.UTC(2025, 2, 2, 2) },
    };
    expect(eventFacts(window)).toEqual([
      { name: 'Maintenance', value: 'Patch: 2025-03-02 01:00 UTC to 2025-03-02 02:00 UTC' },
    ]);
  });

  it('a certificate expiring today, or expired (told so, or past its date), and a relay', () => {
    const certificate = (kind: 'tls.expiring' | 'tls.expired', daysLeft: number) =>
      eventFacts({ ...BARE_EVENT, kind, tls: { host: 'shop.acme.test', expiresAt: Date.UTC(2025, 2, 1), daysLeft } })[0]
        ?.value;
    expect(certificate('tls.expiring', 0)).toBe('shop.acme.test: expires today (2025-03-01 00:00 UTC)');
    expect(certificate('tls.expiring', 1)).toBe('shop.acme.test: expires in 1 day (2025-03-01 00:00 UTC)');
    expect(certificate('tls.expired', 0)).toBe('shop.acme.test: expired (2025-03-01 00:00 UTC)');
    expect(certificate('tls.expired', -3)).toBe('shop.acme.test: expired (2025-03-01 00:00 UTC)');
    expect(eventFacts({ ...BARE_EVENT, kind: 'relay.offline', relay: { key: 'lab', name: 'Home lab' } })).toEqual([
      { name: 'Relay', value: 'Home lab' },
    ]);
  });
});

describe('plainText', () => {
  it('title, reason, facts and footnote', () => {
    expect(plainText(RECOVERED_EVENT)).toBe(
      [
        'Lobby is back up after 4 min',
        '',
        'Monitor: Lobby',
        'Page: Acme status (https://status.acme.test/main)',
        'Downtime: 4 min 12 s',
        'Players: 12 / 64 online',
        '',
        'Acme Games · 2025-03-01 14:05 UTC',
      ].join('\n'),
    );
    expect(plainText(BARE_EVENT, { title: false })).toBe('Acme Games · 2025-03-01 14:05 UTC');
  });

  it('clips by characters, not code units', () => {
    expect(clip('🔴🔴🔴', 2)).toBe('🔴…');
    expect(clip('abc', 3)).toBe('abc');
  });
});
