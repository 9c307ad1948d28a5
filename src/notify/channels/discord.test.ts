import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AT,
  DOWN_EVENT,
  INCIDENT_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { discordChannel } from './discord.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 204 });
});
afterAll(() => receiver.close());

async function deliver(event: NotificationEvent) {
  receiver.requests.length = 0;
  const config = discordChannel.config.parse({ url: `${receiver.url}/api/webhooks/123/abc` });
  expect(await discordChannel.send(event, config, sendContext())).toMatchObject({ kind: 'sent', status: 204 });
  const request = receiver.requests[0]!;
  expect(request).toMatchObject({
    method: 'POST',
    path: '/api/webhooks/123/abc',
    headers: { 'content-type': 'application/json' },
  });
  return request.json as { embeds: Record<string, unknown>[] };
}

const page = { name: 'Page', value: '[Acme status](https://status.acme.test/main)', inline: true };

describe('discord channel', () => {
  it('a down monitor: a red embed with the reason, monitor and page, no mentions', async () => {
    expect(await deliver(DOWN_EVENT)).toEqual({
      username: 'Warden',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Lobby is down',
          description: 'connection refused <127.0.0.1:25565\\> & retried',
          url: 'https://status.acme.test/main',
          color: 0xe74c3c,
          fields: [{ name: 'Monitor', value: 'Lobby', inline: true }, page],
          footer: { text: 'Acme Games' },
          timestamp: new Date(AT).toISOString(),
        },
      ],
    });
  });

  it('a recovery: green, with the downtime and the players', async () => {
    const body = await deliver(RECOVERED_EVENT);
    expect(body.embeds[0]).not.toHaveProperty('description');
    expect(body.embeds[0]).toMatchObject({
      title: 'Lobby is back up after 4 min',
      color: 0x2ecc71,
      fields: [
        { name: 'Monitor', value: 'Lobby', inline: true },
        page,
        { name: 'Downtime', value: '4 min 12 s', inline: true },
        { name: 'Players', value: '12 / 64 online', inline: true },
      ],
    });
  });

  it('an incident: orange, with the incident', async () => {
    const body = await deliver(INCIDENT_EVENT);
    expect(body.embeds[0]).toMatchObject({
      color: 0xf39c12,
      description: 'We are looking into slow logins.',
      fields: [{ name: 'Incident', value: 'Login queue delays \\(investigating, minor\\)', inline: true }, page],
    });
  });

  it('escapes Markdown so a name cannot link or format', async () => {
    const event = { ...DOWN_EVENT, monitor: { ...DOWN_EVENT.monitor!, name: '**[x](https://evil.test)**' } };
    const body = await deliver(event);
    expect((body.embeds[0]!.fields as { value: string }[])[0]!.value).toBe(
      '\\*\\*\\[x\\]\\(https://evil.test\\)\\*\\*',
    );
  });
});
