import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BARE_EVENT,
  DOWN_EVENT,
  INCIDENT_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { ntfyChannel } from './ntfy.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 200, body: '{"id":"abc"}' });
});
afterAll(() => receiver.close());

async function deliver(event: NotificationEvent, token?: string) {
  receiver.requests.length = 0;
  const config = ntfyChannel.config.parse({ url: `${receiver.url}/warden-alerts`, ...(token ? { token } : {}) });
  expect(await ntfyChannel.send(event, config, sendContext())).toMatchObject({ kind: 'sent', status: 200 });
  const request = receiver.requests[0]!;
  expect(request).toMatchObject({ method: 'POST', path: '/warden-alerts' });
  return request;
}

describe('ntfy channel', () => {
  it('a down monitor: the text as the body, title, priority 5, tags, click and the token', async () => {
    const request = await deliver(DOWN_EVENT, 'tk_secret');
    expect(request.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      authorization: 'Bearer tk_secret',
      title: 'Lobby is down',
      priority: '5',
      tags: 'rotating_light',
      click: 'https://status.acme.test/main',
      markdown: 'no',
    });
    expect(request.raw).toBe(
      [
        'connection refused <127.0.0.1:25565> & retried',
        '',
        'Monitor: Lobby',
        'Page: Acme status (https://status.acme.test/main)',
        '',
        'Acme Games · 2025-03-01 14:05 UTC',
      ].join('\n'),
    );
  });

  it('a recovery: priority 3, a check mark, the downtime and players', async () => {
    const request = await deliver(RECOVERED_EVENT);
    expect(request.headers).toMatchObject({
      priority: '3',
      tags: 'white_check_mark',
      title: 'Lobby is back up after 4 min',
    });
    expect(request.headers.authorization).toBeUndefined();
    expect(request.raw).toContain('Downtime: 4 min 12 s\nPlayers: 12 / 64 online');
  });

  it('an incident: priority 4, a warning tag', async () => {
    const request = await deliver(INCIDENT_EVENT);
    expect(request.headers).toMatchObject({ priority: '4', tags: 'warning' });
    expect(request.raw).toContain('Incident: Login queue delays (investigating, minor)');
  });

  it('a title that is not ASCII goes as an RFC 2047 encoded word; no page, no Click', async () => {
    const request = await deliver({ ...BARE_EVENT, title: 'Lobby — ausgefallen 🔥' });
    expect(request.headers.title).toBe(`=?UTF-8?B?${Buffer.from('Lobby — ausgefallen 🔥').toString('base64')}?=`);
    expect(request.headers.click).toBeUndefined();
  });

  it('wants a topic in the URL', () => {
    expect(ntfyChannel.config.safeParse({ url: 'https://ntfy.sh/' }).error?.issues[0]?.message).toMatch(/topic URL/);
  });
});
