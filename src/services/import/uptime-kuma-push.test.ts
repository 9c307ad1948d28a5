// Uptime Kuma's Pushover, Gotify and Matrix notifications carry over as channels of Warden's own types, secrets as
// ${ENV} placeholders, and the channel entries they make load once those are set.
import { describe, expect, it } from 'vitest';
import type { KumaData } from '../../store/index.js';
import { channelEntrySchema } from '../notifications/schema.js';
import type { ImportNote } from './report.js';
import { kumaChannels } from './uptime-kuma-channels.js';

function importRows(configs: Record<string, unknown>[]) {
  const data = {
    notifications: configs.map((config, i) => ({
      id: i + 1,
      name: String(config.type),
      active: true,
      is_default: false,
      config: JSON.stringify(config),
    })),
    monitorNotifications: configs.map((_, i) => ({ left: 7, right: i + 1 })),
  } as unknown as KumaData;
  const skipped: ImportNote[] = [];
  const approximated: ImportNote[] = [];
  const channels = kumaChannels({ data, imported: new Map([[7, 'lobby']]), skipped, approximated });
  return { channels, skipped, approximated };
}

const SECRETS: Record<string, string> = {
  KUMA_PUSHOVER_APP_TOKEN: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  KUMA_PUSHOVER_USER_KEY: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  KUMA_GOTIFY_TOKEN: 'AbCdEf1234567.8',
  KUMA_MATRIX_ACCESS_TOKEN: 'syt_abc',
};

describe('Uptime Kuma push notifications', () => {
  const { channels, skipped, approximated } = importRows([
    {
      type: 'pushover',
      pushoveruserkey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
      pushoverapptoken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
      pushoverpriority: '2',
      pushoverdevice: 'phone',
    },
    { type: 'gotify', gotifyserverurl: 'https://push.example.com/', gotifyapplicationToken: 'AbCd', gotifyPriority: 8 },
    {
      type: 'matrix',
      homeserverUrl: 'https://matrix.example.org',
      internalRoomId: '!room:example.org',
      accessToken: 'syt_x',
    },
    { type: 'matrix', homeserverUrl: 'https://matrix.example.org', accessToken: 'syt_x' },
  ]);

  it('maps each to its channel type, secrets as placeholders', () => {
    expect(channels.map((c) => [c.type, c.config])).toEqual([
      ['pushover', { token: '${KUMA_PUSHOVER_APP_TOKEN}', user: '${KUMA_PUSHOVER_USER_KEY}' }],
      ['gotify', { url: 'https://push.example.com', token: '${KUMA_GOTIFY_TOKEN}' }],
      [
        'matrix',
        {
          homeserverUrl: 'https://matrix.example.org',
          accessToken: '${KUMA_MATRIX_ACCESS_TOKEN}',
          roomId: '!room:example.org',
        },
      ],
    ]);
    expect(channels[0]?.rules).toEqual({ events: ['monitor.down', 'monitor.recovered'], monitors: ['lobby'] });
  });

  it('reports what is not imported, and skips one without a room', () => {
    const pushover = approximated.filter((n) => n.item.startsWith('notification "pushover"')).map((n) => n.reason);
    expect(pushover).toEqual(
      expect.arrayContaining([
        expect.stringContaining('KUMA_PUSHOVER_USER_KEY'),
        expect.stringContaining('its device is not imported'),
        expect.stringContaining('its priority not imported'),
      ]),
    );
    expect(skipped).toEqual([
      { item: 'notification "matrix" (id 4)', reason: 'it has no homeserver URL, room id or access token' },
    ]);
  });

  it('makes entries that load once the placeholders are set', () => {
    for (const channel of channels) {
      const filled = JSON.parse(JSON.stringify(channel).replace(/\$\{(\w+)\}/g, (_, name: string) => SECRETS[name]!));
      expect(channelEntrySchema.safeParse(filled).error).toBeUndefined();
    }
  });
});
