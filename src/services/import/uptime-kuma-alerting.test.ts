// Uptime Kuma's PagerDuty, Opsgenie and Twilio notifications as Warden channels.
import { describe, expect, it } from 'vitest';
import type { KumaData } from '../../store/index.js';
import type { ImportNote } from './report.js';
import { kumaChannels } from './uptime-kuma-channels.js';

function imported(...configs: Record<string, unknown>[]) {
  const data = {
    notifications: configs.map((config, i) => ({
      id: i + 1,
      name: String(config.name),
      active: true,
      is_default: false,
      config: JSON.stringify(config),
    })),
    monitorNotifications: configs.map((_, i) => ({ left: 7, right: i + 1 })),
  } as unknown as KumaData;
  const skipped: ImportNote[] = [];
  const approximated: ImportNote[] = [];
  const channels = kumaChannels({ data, imported: new Map([[7, 'lobby']]), skipped, approximated });
  return { channels, skipped, notes: approximated.map((note) => note.reason) };
}

const SCOPE = { events: ['monitor.down', 'monitor.recovered'], monitors: ['lobby'] };

describe('Uptime Kuma alerting providers', () => {
  it('PagerDuty: the integration key as a placeholder, a custom enqueue URL as apiUrl', () => {
    const { channels, notes } = imported({
      name: 'On call',
      type: 'PagerDuty',
      pagerdutyIntegrationKey: 'R0123456789abcdef0123456789abcde',
      pagerdutyIntegrationUrl: 'https://pd-proxy.acme.test/v2/enqueue',
      pagerdutyPriority: 'critical',
      pagerdutyAutoResolve: 'resolve',
    });
    expect(channels).toEqual([
      {
        key: 'on-call',
        name: 'On call',
        type: 'pagerduty',
        config: { routingKey: '${KUMA_ON_CALL_ROUTING_KEY}', apiUrl: 'https://pd-proxy.acme.test' },
        rules: SCOPE,
      },
    ]);
    expect(notes).toEqual([
      'its integration key is read from ${KUMA_ON_CALL_ROUTING_KEY}: set it before warden config apply',
      "its severity is not imported: Warden sets one by the event's severity",
    ]);
  });

  it('Opsgenie: the API key as a placeholder and the EU region', () => {
    const { channels, notes } = imported({
      name: 'Genie',
      type: 'Opsgenie',
      opsgenieApiKey: 'eb243592-faa2-4ba2-a551-1afdf565c889',
      opsgenieRegion: 'eu',
      opsgeniePriority: 2,
    });
    expect(channels[0]).toMatchObject({
      type: 'opsgenie',
      config: { apiKey: '${KUMA_GENIE_API_KEY}', region: 'eu' },
    });
    expect(notes.join('\n')).toContain('its priority is not imported');
  });

  it('Twilio: the numbers and account SID as they are, the auth token as a placeholder', () => {
    const { channels } = imported({
      name: 'SMS',
      type: 'twilio',
      twilioAccountSID: 'AC0123456789abcdef0123456789abcdef',
      twilioAuthToken: 'secret-token',
      twilioFromNumber: '+14155550100',
      twilioToNumber: '+14155550199',
    });
    expect(channels[0]).toMatchObject({
      type: 'twilio',
      config: {
        accountSid: 'AC0123456789abcdef0123456789abcdef',
        authToken: '${KUMA_SMS_AUTH_TOKEN}',
        from: '+14155550100',
        to: '+14155550199',
      },
    });
    expect(JSON.stringify(channels)).not.toContain('secret-token');
  });

  it('skips what it cannot carry over, with the reason', () => {
    const { channels, skipped } = imported(
      { name: 'No key', type: 'PagerDuty' },
      { name: 'Odd URL', type: 'PagerDuty', pagerdutyIntegrationKey: 'k', pagerdutyIntegrationUrl: 'https://x.test/y' },
      { name: 'No number', type: 'twilio', twilioAccountSID: 'AC0', twilioAuthToken: 't' },
      {
        name: 'Bad number',
        type: 'twilio',
        twilioAccountSID: 'AC0',
        twilioAuthToken: 't',
        twilioFromNumber: '1',
        twilioToNumber: '2',
      },
    );
    expect(channels).toEqual([]);
    expect(skipped.map((note) => note.reason)).toEqual([
      'it has no integration key',
      'its integration URL https://x.test/y is not an Events API v2 enqueue URL',
      'it has no account SID, auth token, sender or recipient',
      expect.stringMatching(/^it does not fit Warden: .*Account SID/),
    ]);
  });
});
