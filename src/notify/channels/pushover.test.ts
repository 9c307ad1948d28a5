import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AT,
  BARE_EVENT,
  DOWN_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { pushoverChannel } from './pushover.js';

const TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const OK = { status: 200, body: '{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b"}' };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function deliver(event: NotificationEvent, answer: Parameters<Receiver['answer']>[0] = OK) {
  receiver.answer(answer);
  receiver.requests.length = 0;
  const config = pushoverChannel.config.parse({ token: TOKEN, user: USER, apiBaseUrl: `${receiver.url}/` });
  const outcome = await pushoverChannel.send(event, config, sendContext());
  return { outcome, request: receiver.requests[0]! };
}

describe('pushover channel', () => {
  it('a down monitor: messages.json with the keys, high priority, the time and the page', async () => {
    const { outcome, request } = await deliver(DOWN_EVENT);
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
    expect((await deliver(RECOVERED_EVENT)).request.json).toMatchObject({
      priority: 0,
      message: expect.stringContaining('Downtime: 4 min 12 s\nPlayers: 12 / 64 online'),
    });
    const bare = (await deliver(BARE_EVENT)).request.json as Record<string, unknown>;
    expect(bare).toMatchObject({ priority: 0, title: 'Test notification from Warden' });
    expect(bare.url).toBeUndefined();
  });

  it("a refused message is dead with Pushover's reason", async () => {
    const body =
      '{"user":"invalid","errors":["user identifier is not a valid user, group, or subscribed user key"],"status":0}';
    expect((await deliver(DOWN_EVENT, { status: 400, body })).outcome).toEqual({
      kind: 'dead',
      status: 400,
      error: 'HTTP 400: user identifier is not a valid user, group, or subscribed user key',
      answer: body,
    });
  });

  it("429 (the application's monthly limit) waits for Retry-After", async () => {
    const { outcome } = await deliver(DOWN_EVENT, { status: 429, headers: { 'retry-after': '60' }, body: '{}' });
    expect(outcome).toMatchObject({ kind: 'retry', status: 429, afterMs: 60_000 });
  });

  it('keeps the message within 1024 characters', async () => {
    const { request } = await deliver({ ...DOWN_EVENT, reason: 'x'.repeat(1400) });
    expect(Array.from((request.json as { message: string }).message)).toHaveLength(1024);
  });

  it('wants 30-character keys, and defaults to the real API', () => {
    const parsed = pushoverChannel.config.parse({ token: TOKEN, user: USER });
    expect(parsed.apiBaseUrl).toBe('https://api.pushover.net');
    const wrong = pushoverChannel.config.safeParse({ token: 'short', user: USER });
    expect(wrong.error?.issues[0]?.message).toMatch(/30 letters and digits/);
  });
});
