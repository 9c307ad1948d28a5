// Gatus's PagerDuty, Opsgenie and Twilio providers as Warden channels.
import { describe, expect, it } from 'vitest';
import { importAlerting, type ResolvedAlert } from './gatus-alerting.js';
import type { ImportNote } from './report.js';

const ALERT: ResolvedAlert = { type: '', enabled: true, failureThreshold: 3, sendOnResolved: true, reminderMs: 0 };

function run(alerting: Record<string, unknown>) {
  const used = new Map(Object.keys(alerting).map((type) => [type, [{ ...ALERT, type }]]));
  const notes = { skipped: [] as ImportNote[], approximated: [] as ImportNote[] };
  const { channels } = importAlerting(alerting, used, notes);
  return { channels, skipped: notes.skipped, notes: notes.approximated.map((n) => `${n.item}: ${n.reason}`) };
}

describe('Gatus alerting tools', () => {
  it('maps pagerduty, opsgenie and twilio, their secrets as placeholders', () => {
    const { channels, notes } = run({
      pagerduty: { 'integration-key': 'R0123456789abcdef0123456789abcde' },
      opsgenie: { 'api-key': '${OPSGENIE_KEY}', priority: 'P2', tags: ['gatus'] },
      twilio: { sid: 'AC0123456789abcdef0123456789abcdef', token: 'tok', from: '+14155550100', to: '+14155550199' },
    });
    const events = { events: ['monitor.down', 'monitor.recovered'] };
    expect(channels).toEqual([
      {
        key: 'pagerduty',
        name: 'PagerDuty',
        type: 'pagerduty',
        config: { routingKey: '${GATUS_PAGERDUTY_INTEGRATION_KEY}' },
        rules: events,
      },
      { key: 'opsgenie', name: 'Opsgenie', type: 'opsgenie', config: { apiKey: '${OPSGENIE_KEY}' }, rules: events },
      {
        key: 'twilio',
        name: 'SMS (Twilio)',
        type: 'twilio',
        config: {
          accountSid: 'AC0123456789abcdef0123456789abcdef',
          authToken: '${GATUS_TWILIO_TOKEN}',
          from: '+14155550100',
          to: '+14155550199',
        },
        rules: events,
      },
    ]);
    expect(notes).toContain(
      'alerting.opsgenie: priority, tags not imported: Warden sets its own priority by severity, alias, source and tags',
    );
    expect(JSON.stringify(channels)).not.toContain('R0123456789abcdef');
  });

  it('skips a provider missing what it needs', () => {
    const { channels, skipped } = run({ pagerduty: {}, opsgenie: {}, twilio: { sid: 'AC1' } });
    expect(channels).toEqual([]);
    expect(skipped.map((n) => n.reason)).toEqual([
      'integration-key is required',
      'api-key is required',
      'sid, token, from and to are required',
    ]);
  });
});
