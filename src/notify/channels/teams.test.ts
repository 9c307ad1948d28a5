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
import { teamsChannel } from './teams.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 202 });
});
afterAll(() => receiver.close());

async function card(event: NotificationEvent) {
  receiver.requests.length = 0;
  const config = teamsChannel.config.parse({ url: `${receiver.url}/workflows/abc/triggers/manual/paths/invoke?sig=s` });
  expect(await teamsChannel.send(event, config, sendContext())).toMatchObject({ kind: 'sent', status: 202 });
  const request = receiver.requests[0]!;
  expect(request).toMatchObject({
    method: 'POST',
    path: '/workflows/abc/triggers/manual/paths/invoke?sig=s',
    headers: { 'content-type': 'application/json' },
  });
  const body = request.json as {
    type: string;
    attachments: { contentType: string; content: { body: unknown[]; actions: unknown[] } }[];
  };
  expect(body.type).toBe('message');
  expect(body.attachments).toHaveLength(1);
  expect(body.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
  return body.attachments[0]!.content;
}

const open = [{ type: 'Action.OpenUrl', title: 'Open Acme status', url: 'https://status.acme.test/main' }];
const footnote = {
  type: 'TextBlock',
  text: 'Acme Games · 2025-03-01 14:05 UTC',
  isSubtle: true,
  size: 'Small',
  wrap: true,
};

describe('teams channel', () => {
  it('a down monitor: an Adaptive Card 1.4 with the title in red, the reason, the facts and a link to the page', async () => {
    expect(await card(DOWN_EVENT)).toEqual({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        { type: 'TextBlock', text: 'Lobby is down', size: 'Large', weight: 'Bolder', color: 'Attention', wrap: true },
        { type: 'TextBlock', text: 'connection refused <127.0.0.1:25565> & retried', wrap: true },
        {
          type: 'FactSet',
          facts: [
            { title: 'Monitor', value: 'Lobby' },
            { title: 'Page', value: 'Acme status' },
          ],
        },
        footnote,
      ],
      actions: open,
    });
  });

  it('a recovery: green, with the downtime and players', async () => {
    const content = await card(RECOVERED_EVENT);
    expect(content.body).toEqual([
      {
        type: 'TextBlock',
        text: 'Lobby is back up after 4 min',
        size: 'Large',
        weight: 'Bolder',
        color: 'Good',
        wrap: true,
      },
      {
        type: 'FactSet',
        facts: [
          { title: 'Monitor', value: 'Lobby' },
          { title: 'Page', value: 'Acme status' },
          { title: 'Downtime', value: '4 min 12 s' },
          { title: 'Players', value: '12 / 64 online' },
        ],
      },
      footnote,
    ]);
  });

  it('an incident: the warning colour', async () => {
    const content = await card(INCIDENT_EVENT);
    expect(content.body[0]).toMatchObject({ color: 'Warning' });
    expect(content.body[2]).toMatchObject({
      facts: [{ title: 'Incident', value: 'Login queue delays (investigating, minor)' }, { title: 'Page' }],
    });
    expect(content.actions).toEqual(open);
  });
});
