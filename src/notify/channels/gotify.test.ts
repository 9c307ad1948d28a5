import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { escapeMarkdown, gotifyChannel } from './gotify.js';

const TOKEN = 'AbCdEf1234567.8';
const OK = { status: 200, body: '{"id":25,"appid":5,"message":"…","priority":8}' };

const harness = channelHarness(gotifyChannel, (origin) => ({ url: `${origin}/gotify/`, token: TOKEN }), OK);

describe('gotify channel', () => {
  // A wrong token: dead with Gotify's description.
  itHonoursTheReceiver(harness, DOWN_EVENT, {
    status: 401,
    body: '{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token"}',
    error: 'HTTP 401: you need to provide a valid access token',
  });

  it('a down monitor: /message on the server, the key in a header, markdown, priority 8, a click to the page', async () => {
    const { outcome, request } = await harness.send(DOWN_EVENT);
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
    expect((await harness.send(RECOVERED_EVENT)).request.json).toMatchObject({
      priority: 4,
      message: expect.stringContaining('- **Downtime:** 4 min 12 s\n- **Players:** 12 / 64 online'),
    });
    expect((await harness.send(INCIDENT_EVENT)).request.json).toMatchObject({ priority: 6 });
    const bare = (await harness.send(BARE_EVENT)).request.json as { extras: Record<string, unknown>; message: string };
    expect(bare.extras).toEqual({ 'client::display': { contentType: 'text/markdown' } });
    expect(bare.message).toBe('_Acme Games · 2025-03-01 14:05 UTC_');
  });

  it('502 from a proxy in front is retried', async () => {
    expect((await harness.send(DOWN_EVENT, { status: 502 })).outcome).toMatchObject({ kind: 'retry', status: 502 });
  });

  it('escapes what would format a name', () => {
    expect(escapeMarkdown('**Lobby** [eu]_1 <b>')).toBe('\\*\\*Lobby\\*\\* \\[eu\\]\\_1 \\<b\\>');
  });
});
