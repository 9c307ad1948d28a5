import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { mattermostChannel } from './mattermost.js';

const harness = channelHarness(mattermostChannel, (origin) => ({ url: `${origin}/hooks/xfa1k3y` }), {
  status: 200,
  body: 'ok',
});

async function deliver(event: NotificationEvent) {
  const { outcome, request } = await harness.send(event);
  expect(outcome).toEqual({ kind: 'sent', status: 200, answer: 'ok' });
  expect(request).toMatchObject({
    method: 'POST',
    path: '/hooks/xfa1k3y',
    headers: { 'content-type': 'application/json' },
  });
  return request.json as { username: string; attachments: Record<string, unknown>[] };
}

const page = { title: 'Page', value: '[Acme status](https://status.acme.test/main)', short: true };

describe('mattermost channel', () => {
  itHonoursTheReceiver(harness, DOWN_EVENT, { status: 400, body: '{"id":"web.incoming_webhook.disabled.app_error"}' });

  it('a down monitor: one red attachment, the title linking the page, the reason escaped, the facts', async () => {
    expect(await deliver(DOWN_EVENT)).toEqual({
      username: 'Warden',
      attachments: [
        {
          fallback: '🔴 Lobby is down',
          color: '#e74c3c',
          title: 'Lobby is down',
          title_link: 'https://status.acme.test/main',
          text: 'connection refused <127.0.0.1:25565\\> & retried',
          fields: [{ title: 'Monitor', value: 'Lobby', short: true }, page],
          footer: 'Acme Games · 2025-03-01 14:05 UTC',
        },
      ],
    });
  });

  it('a recovery: green, with the downtime and players', async () => {
    const { attachments } = await deliver(RECOVERED_EVENT);
    expect(attachments[0]).toMatchObject({
      fallback: '✅ Lobby is back up after 4 min',
      color: '#2ecc71',
      fields: [
        { title: 'Monitor', value: 'Lobby', short: true },
        page,
        { title: 'Downtime', value: '4 min 12 s', short: true },
        { title: 'Players', value: '12 / 64 online', short: true },
      ],
    });
    expect(attachments[0]).not.toHaveProperty('text');
  });

  it('a name cannot mention or format: @channel is defused, Markdown escaped', async () => {
    const event = {
      ...DOWN_EVENT,
      title: '@channel is down',
      monitor: { ...DOWN_EVENT.monitor!, name: '@channel **now**' },
      reason: 'ask @all or ops@acme.test',
    };
    const [attachment] = (await deliver(event)).attachments;
    expect(attachment).toMatchObject({
      fallback: '🔴 @\u200bchannel is down',
      text: 'ask @\u200ball or ops@acme.test',
    });
    expect((attachment!.fields as { value: string }[])[0]!.value).toBe('@\u200bchannel \\*\\*now\\*\\*');
  });

  it('an event with nothing optional: no link, no text, no fields', async () => {
    const [attachment] = (await deliver(BARE_EVENT)).attachments;
    expect(attachment).toEqual({
      fallback: '🔵 Test notification from Warden',
      color: '#3498db',
      title: 'Test notification from Warden',
      fields: [],
      footer: 'Acme Games · 2025-03-01 14:05 UTC',
    });
  });
});
