// Gatus's pushover, gotify and matrix providers become channels of Warden's own types, their secrets ${ENV} placeholders.
import { describe, expect, it } from 'vitest';
import { importAlerting, type ResolvedAlert } from './gatus-alerting.js';
import type { ImportNote } from './report.js';

const ALERT: ResolvedAlert = {
  type: '',
  enabled: true,
  failureThreshold: 3,
  sendOnResolved: true,
  reminderMs: 0,
};

function run(alerting: Record<string, unknown>) {
  const used = new Map(Object.keys(alerting).map((type) => [type, [{ ...ALERT, type }]]));
  const notes = { skipped: [] as ImportNote[], approximated: [] as ImportNote[] };
  return { ...importAlerting(alerting, used, notes), ...notes };
}

describe('Gatus push alerting providers', () => {
  it('maps pushover, gotify and matrix, secrets as placeholders and env references kept', () => {
    const { channels, approximated } = run({
      pushover: { 'application-token': 'azGDORePK8gMaC0QOYAMyEEuzJnyUi', 'user-key': '${PUSHOVER_USER}', priority: 1 },
      gotify: { 'server-url': 'https://push.example.com/', token: 'AbCdEf1234567.8' },
      matrix: { 'access-token': 'syt_abc', 'internal-room-id': '!ops:example.org' },
    });
    expect(channels.map((c) => [c.key, c.type, c.config])).toEqual([
      ['pushover', 'pushover', { token: '${GATUS_PUSHOVER_APPLICATION_TOKEN}', user: '${PUSHOVER_USER}' }],
      ['gotify', 'gotify', { url: 'https://push.example.com', token: '${GATUS_GOTIFY_TOKEN}' }],
      [
        'matrix',
        'matrix',
        {
          homeserverUrl: 'https://matrix-client.matrix.org',
          accessToken: '${GATUS_MATRIX_ACCESS_TOKEN}',
          roomId: '!ops:example.org',
        },
      ],
    ]);
    expect(channels[0]?.rules).toEqual({ events: ['monitor.down', 'monitor.recovered'] });
    expect(approximated).toContainEqual({
      item: 'alerting.pushover',
      reason: "priority not imported: Warden sets them by the event's severity",
    });
  });

  it('skips a provider missing what it needs', () => {
    const { channels, skipped } = run({ matrix: { 'access-token': 'x' }, gotify: { token: 't' } });
    expect(channels).toEqual([]);
    expect(skipped).toEqual([
      { item: 'alerting.matrix', reason: 'access-token and internal-room-id are required' },
      { item: 'alerting.gotify', reason: 'server-url and token are required' },
    ]);
  });
});
