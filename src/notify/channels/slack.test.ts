import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOWN_EVENT,
  INCIDENT_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { slackChannel } from './slack.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 200, body: 'ok' });
});
afterAll(() => receiver.close());

async function deliver(event: NotificationEvent) {
  receiver.requests.length = 0;
  const config = slackChannel.config.parse({ url: `${receiver.url}/services/T0/B0/xyz` });
  expect(await slackChannel.send(event, config, sendContext())).toEqual({ kind: 'sent', status: 200, answer: 'ok' });
  const request = receiver.requests[0]!;
  expect(request).toMatchObject({
    method: 'POST',
    path: '/services/T0/B0/xyz',
    headers: { 'content-type': 'application/json' },
  });
  return request.json as { text: string; blocks: Record<string, unknown>[] };
}

const button = {
  type: 'actions',
  elements: [
    { type: 'button', text: { type: 'plain_text', text: 'Open Acme status' }, url: 'https://status.acme.test/main' },
  ],
};
const context = { type: 'context', elements: [{ type: 'mrkdwn', text: 'Acme Games · 2025-03-01 14:05 UTC' }] };
const page = { type: 'mrkdwn', text: '*Page*\n<https://status.acme.test/main|Acme status>' };

describe('slack channel', () => {
  it('a down monitor: header, the reason escaped, fields, a button to the page, and a text fallback', async () => {
    expect(await deliver(DOWN_EVENT)).toEqual({
      text: '🔴 Lobby is down',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: '🔴 Lobby is down', emoji: true } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'connection refused &lt;127.0.0.1:25565&gt; &amp; retried' },
          fields: [{ type: 'mrkdwn', text: '*Monitor*\nLobby' }, page],
        },
        button,
        context,
      ],
    });
  });

  it('a recovery: the downtime and players as fields', async () => {
    const body = await deliver(RECOVERED_EVENT);
    expect(body.text).toBe('✅ Lobby is back up after 4 min');
    expect(body.blocks[1]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Monitor*\nLobby' },
        page,
        { type: 'mrkdwn', text: '*Downtime*\n4 min 12 s' },
        { type: 'mrkdwn', text: '*Players*\n12 / 64 online' },
      ],
    });
  });

  it('an incident', async () => {
    const body = await deliver(INCIDENT_EVENT);
    expect(body.blocks).toHaveLength(4);
    expect(body.blocks[1]).toMatchObject({
      fields: [{ type: 'mrkdwn', text: '*Incident*\nLogin queue delays (investigating, minor)' }, page],
    });
  });
});
