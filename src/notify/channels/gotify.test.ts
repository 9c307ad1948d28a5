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
import { escapeMarkdown, gotifyChannel } from './gotify.js';

const TOKEN = 'AbCdEf1234567.8';
const OK = { status: 200, body: '{"id":25,"appid":5,"message":"…","priority":8}' };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function deliver(event: NotificationEvent, answer: Parameters<Receiver['answer']>[0] = OK) {
  receiver.answer(answer);
  receiver.requests.length = 0;
  const config = gotifyChannel.config.parse({ url: `${receiver.url}/gotify/`, token: TOKEN });
  const outcome = await gotifyChannel.send(event, config, sendContext());
  return { outcome, request: receiver.requests[0]! };
}

describe('gotify channel', () => {
  it('a down monitor: /message on the server, the key in a header, markdown, priority 8, a click to the page', async () => {
    const { outcome, request } = await deliver(DOWN_EVENT);
    expect(outcome).toEqual({ kind: 'sent', status: 200, answer: OK.body });
    expect(request).toMatchObject({
      method: 'POST',
      path: '/gotify/message',
      headers: { 'content-type': 'application/json', 'x-gotify-key': TOKEN },
    });
    expect(request.json).toEqual({
      title: 'Lobby is down',
      message: [
        'connection refused \\<127.0.0.1:25565\\> & retried',
        '',
        '- **Monitor:** Lobby',
        '- **Page:** [Acme status](<https://status.acme.test/main>)',
        '',
        '_Acme Games · 2025-03-01 14:05 UTC_',
      ].join('\n'),
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url: 'https://status.acme.test/main' } },
      },
    });
  });

  it('a recovery at priority 4, an incident at 6; no page, no click', async () => {
    expect((await deliver(RECOVERED_EVENT)).request.json).toMatchObject({
      priority: 4,
      message: expect.stringContaining('- **Downtime:** 4 min 12 s\n- **Players:** 12 / 64 online'),
    });
    expect((await deliver(INCIDENT_EVENT)).request.json).toMatchObject({ priority: 6 });
    const bare = (await deliver(BARE_EVENT)).request.json as { extras: Record<string, unknown>; message: string };
    expect(bare.extras).toEqual({ 'client::display': { contentType: 'text/markdown' } });
    expect(bare.message).toBe('_Acme Games · 2025-03-01 14:05 UTC_');
  });

  it("a wrong token is dead with Gotify's description", async () => {
    const body =
      '{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token"}';
    expect((await deliver(DOWN_EVENT, { status: 401, body })).outcome).toEqual({
      kind: 'dead',
      status: 401,
      error: 'HTTP 401: you need to provide a valid access token',
      answer: body,
    });
  });

  it('429 waits for its Retry-After; 502 from a proxy in front is retried', async () => {
    expect((await deliver(DOWN_EVENT, { status: 429, headers: { 'retry-after': '7' } })).outcome).toMatchObject({
      kind: 'retry',
      afterMs: 7000,
    });
    expect((await deliver(DOWN_EVENT, { status: 502 })).outcome).toMatchObject({ kind: 'retry', status: 502 });
  });

  it('escapes what would format a name', () => {
    expect(escapeMarkdown('**Lobby** [eu]_1 <b>')).toBe('\\*\\*Lobby\\*\\* \\[eu\\]\\_1 \\<b\\>');
  });
});
