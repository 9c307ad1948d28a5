import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { AT, BARE_EVENT, DOWN_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { pushoverChannel } from './pushover.js';

const TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const OK = { status: 200, body: '{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b"}' };

const harness = channelHarness(
  pushoverChannel,
  (origin) => ({ token: TOKEN, user: USER, apiBaseUrl: `${origin}/` }),
  OK,
);

const REFUSED =
  '{"user":"invalid","errors":["user identifier is not a valid user, group, or subscribed user key"],"status":0}';

describe('pushover channel', () => {
  // 429 is the application's monthly limit.
  itHonoursTheReceiver(
    harness,
    DOWN_EVENT,
    {
      status: 400,
      body: REFUSED,
      error: 'HTTP 400: user identifier is not a valid user, group, or subscribed user key',
    },
    { retryAfter: 60, body: '{}' },
  );

  it('a down monitor: messages.json with the keys, high priority, the time and the page', async () => {
    const { outcome, request } = await harness.send(DOWN_EVENT);
    expect(outcome).toEqual({ kind: 'sent', status: 200, answer: OK.body });
    expect(request).toMatchObject({
      method: 'POST',
      path: '/1/messages.json',
      headers: { 'content-type': 'application/json' },
    });
    expect(request.json).toEqual({
      token: TOKEN,
      user: USER,
      title: 'Lobby is down',
      message: [
        'connection refused <127.0.0.1:25565> & retried',
        '',
        'Monitor: Lobby',
        'Page: Acme status (https://status.acme.test/main)',
        '',
        'Acme Games · 2025-03-01 14:05 UTC',
      ].join('\n'),
      priority: 1,
      timestamp: AT / 1000,
      url: 'https://status.acme.test/main',
      url_title: 'Open Acme status',
    });
  });

  it('a recovery at normal priority; an event without a page has no url', async () => {
    expect((await harness.send(RECOVERED_EVENT)).request.json).toMatchObject({
      priority: 0,
      message: expect.stringContaining('Downtime: 4 min 12 s\nPlayers: 12 / 64 online'),
    });
    const bare = (await harness.send(BARE_EVENT)).request.json as Record<string, unknown>;
    expect(bare).toMatchObject({ priority: 0, title: 'Test notification from Warden' });
    expect(bare.url).toBeUndefined();
  });

  it('keeps the message within 1024 characters', async () => {
    const { request } = await harness.send({ ...DOWN_EVENT, reason: 'x'.repeat(1400) });
    expect(Array.from((request.json as { message: string }).message)).toHaveLength(1024);
  });

  it('wants 30-character keys, and defaults to the real API', () => {
    const parsed = pushoverChannel.config.parse({ token: TOKEN, user: USER });
    expect(parsed.apiBaseUrl).toBe('https://api.pushover.net');
    const wrong = pushoverChannel.config.safeParse({ token: 'short', user: USER });
    expect(wrong.error?.issues[0]?.message).toMatch(/30 letters and digits/);
  });
});
