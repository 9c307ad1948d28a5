// Mattermost, Rocket.Chat and Google Chat from Uptime Kuma's notifications and Gatus's alerting: the webhook URL kept
// with its token as an ${ENV} placeholder, the sender's looks (channel, name, icon) reported as not imported.
import { describe, expect, it } from 'vitest';
import type { KumaData } from '../../store/index.js';
import { importAlerting, type ResolvedAlert } from './gatus-alerting.js';
import type { ImportNote } from './report.js';
import { kumaChannels } from './uptime-kuma-channels.js';

function fromKuma(config: Record<string, unknown>) {
  const data = {
    notifications: [{ id: 7, name: 'Ops chat', active: true, is_default: false, config: JSON.stringify(config) }],
    monitorNotifications: [{ left: 1, right: 7 }],
  } as unknown as KumaData;
  const ctx = {
    data,
    imported: new Map([[1, 'lobby']]),
    skipped: [] as ImportNote[],
    approximated: [] as ImportNote[],
  };
  const [channel] = kumaChannels(ctx);
  return { channel, skipped: ctx.skipped, notes: ctx.approximated.map((note) => note.reason) };
}

describe('Uptime Kuma chat notifications', () => {
  it('mattermost: the hook key is a placeholder; channel, user name and icon are reported', () => {
    const { channel, notes } = fromKuma({
      type: 'mattermost',
      mattermostWebhookUrl: 'https://chat.acme.test/hooks/xfa1k3y',
      mattermostchannel: 'alerts',
      mattermostusername: 'Kuma',
    });
    expect(channel).toMatchObject({
      key: 'ops-chat',
      type: 'mattermost',
      config: { url: 'https://chat.acme.test/hooks/${KUMA_OPS_CHAT_URL_TOKEN}' },
      rules: { events: ['monitor.down', 'monitor.recovered'], monitors: ['lobby'] },
    });
    expect(notes).toEqual([
      expect.stringContaining("set it to the URL's last part"),
      expect.stringContaining('its mattermostchannel, mattermostusername not imported'),
    ]);
  });

  it('rocket.chat: the integration token (the last part) is a placeholder', () => {
    const { channel } = fromKuma({ type: 'rocket.chat', rocketwebhookURL: 'https://rc.acme.test/hooks/abc/t0k3n' });
    expect(channel).toMatchObject({
      type: 'rocketchat',
      config: { url: 'https://rc.acme.test/hooks/abc/${KUMA_OPS_CHAT_URL_TOKEN}' },
    });
  });

  it('GoogleChat: the token= parameter is a placeholder, the key and space kept', () => {
    const { channel, notes } = fromKuma({
      type: 'GoogleChat',
      googleChatWebhookURL: 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=AIza&token=s3cr%3D',
    });
    expect(channel).toMatchObject({
      type: 'googlechat',
      config: { url: 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=AIza&token=${KUMA_OPS_CHAT_URL_TOKEN}' },
    });
    expect(notes[0]).toContain("set it to the URL's token= parameter");
  });

  it('a notification without its URL is skipped', () => {
    const { channel, skipped } = fromKuma({ type: 'mattermost' });
    expect(channel).toBeUndefined();
    expect(skipped).toEqual([{ item: 'notification "Ops chat" (id 7)', reason: 'it has no webhook URL' }]);
  });
});

describe('Gatus chat alerting', () => {
  const alert: ResolvedAlert = {
    type: '',
    enabled: true,
    failureThreshold: 3,
    sendOnResolved: true,
    reminderMs: 0,
  };
  it('mattermost, rocketchat and googlechat become channels of those types, their URLs from the environment', () => {
    const alerting = {
      mattermost: { 'webhook-url': 'https://chat.acme.test/hooks/x', channel: 'ops' },
      rocketchat: { 'webhook-url': 'https://rc.acme.test/hooks/a/b', emoji: ':fire:' },
      googlechat: { 'webhook-url': 'https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t' },
    };
    const used = new Map(Object.keys(alerting).map((type) => [type, [{ ...alert, type }]]));
    const notes = { skipped: [] as ImportNote[], approximated: [] as ImportNote[] };
    const { channels } = importAlerting(alerting, used, notes);
    expect(channels.map((c) => [c.key, c.type, c.config])).toEqual([
      ['mattermost', 'mattermost', { url: '${GATUS_MATTERMOST_WEBHOOK_URL}' }],
      ['rocketchat', 'rocketchat', { url: '${GATUS_ROCKETCHAT_WEBHOOK_URL}' }],
      ['googlechat', 'googlechat', { url: '${GATUS_GOOGLECHAT_WEBHOOK_URL}' }],
    ]);
    expect(notes.skipped).toEqual([]);
    expect(notes.approximated.map((n) => `${n.item}: ${n.reason}`)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("alerting.mattermost: channel not imported: Warden's messages have their own layout"),
        expect.stringContaining('alerting.rocketchat: emoji not imported'),
      ]),
    );
  });
});
