import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { matrixChannel } from './matrix.js';

const TOKEN = 'syt_d2FyZGVu_FvXbGkLxQmPzTnRsWu_1a2b3c';
const ROOM = '!OGEhHVWSdvArJzumhm:matrix.org';
const PATH = '/_matrix/client/v3/rooms/!OGEhHVWSdvArJzumhm%3Amatrix.org/send/m.room.message';
const OK = { status: 200, body: '{"event_id":"$YUwRidLecu:example.com"}' };

const harness = channelHarness(
  matrixChannel,
  (origin) => ({ homeserverUrl: `${origin}/`, accessToken: TOKEN, roomId: ROOM }),
  OK,
);

describe('matrix channel', () => {
  // A refusal is dead with its errcode and error.
  itHonoursTheReceiver(harness, DOWN_EVENT, {
    status: 403,
    body: '{"errcode":"M_FORBIDDEN","error":"User @warden:example.org not in room"}',
    error: 'HTTP 403: M_FORBIDDEN: User @warden:example.org not in room',
  });

  it('a down monitor: PUT to the room with the transaction id from the event, plain body and HTML', async () => {
    const { outcome, request } = await harness.send(DOWN_EVENT);
    expect(outcome).toEqual({ kind: 'sent', status: 200, answer: OK.body });
    expect(request).toMatchObject({
      method: 'PUT',
      path: `${PATH}/warden-evt_down_1`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    });
    expect(request.json).toEqual({
      msgtype: 'm.text',
      body: [
        '🔴 Lobby is down',
        'connection refused <127.0.0.1:25565> & retried',
        '',
        'Monitor: Lobby',
        'Page: Acme status (https://status.acme.test/main)',
        '',
        'Acme Games · 2025-03-01 14:05 UTC',
      ].join('\n'),
      format: 'org.matrix.custom.html',
      formatted_body:
        '<p><b>🔴 Lobby is down</b></p><p>connection refused &lt;127.0.0.1:25565&gt; &amp; retried</p>' +
        '<ul><li><b>Monitor:</b> Lobby</li><li><b>Page:</b> <a href="https://status.acme.test/main">Acme status</a></li></ul>' +
        '<p><i>Acme Games · 2025-03-01 14:05 UTC</i></p>',
      'm.mentions': {},
    });
  });

  it('a retry of one event is the same transaction; its recovery is another', async () => {
    const first = (await harness.send(DOWN_EVENT, { status: 502 })).request.path;
    const again = (await harness.send(DOWN_EVENT)).request.path;
    const recovery = (await harness.send(RECOVERED_EVENT)).request.path;
    expect(again).toBe(first);
    expect(recovery).toBe(`${PATH}/warden-evt_up_1`);
  });

  it('an event with nothing optional', async () => {
    const { request } = await harness.send(BARE_EVENT);
    expect(request.json).toMatchObject({
      body: '🔵 Test notification from Warden\n\nAcme Games · 2025-03-01 14:05 UTC',
      formatted_body: '<p><b>🔵 Test notification from Warden</b></p><p><i>Acme Games · 2025-03-01 14:05 UTC</i></p>',
    });
  });

  it('M_LIMIT_EXCEEDED: waits for the later of retry_after_ms and Retry-After', async () => {
    const body = '{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":5500}';
    expect((await harness.send(DOWN_EVENT, { status: 429, body })).outcome).toMatchObject({
      kind: 'retry',
      status: 429,
      afterMs: 5500,
    });
    const later = { status: 429, headers: { 'retry-after': '9' }, body };
    expect((await harness.send(DOWN_EVENT, later)).outcome).toMatchObject({ kind: 'retry', afterMs: 9000 });
  });

  it('wants a room id, not an alias', () => {
    const parse = (roomId: string) =>
      matrixChannel.config.safeParse({ homeserverUrl: 'https://matrix.org', accessToken: TOKEN, roomId });
    expect(parse('#ops:example.org').error?.issues[0]?.message).toMatch(/not a #room:alias/);
    expect(parse('!abc def:example.org').success).toBe(false);
    expect(parse('!7YmRh2Vt7bX_ZUcvOJXOPRx1tuIfmZ1Ym6GRfVz0vY0').success).toBe(true);
  });
});
