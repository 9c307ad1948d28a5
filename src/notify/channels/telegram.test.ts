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
import { telegramChannel } from './telegram.js';

const TOKEN = '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function deliver(
  event: NotificationEvent,
  answer: Parameters<Receiver['answer']>[0] = { status: 200, body: '{"ok":true}' },
) {
  receiver.answer(answer);
  receiver.requests.length = 0;
  const config = telegramChannel.config.parse({
    botToken: TOKEN,
    chatId: -1001234567890,
    apiBaseUrl: `${receiver.url}/`,
  });
  const outcome = await telegramChannel.send(event, config, sendContext());
  return { outcome, request: receiver.requests[0]! };
}

describe('telegram channel', () => {
  it('a down monitor: sendMessage to the chat, HTML escaped, no link preview', async () => {
    const { outcome, request } = await deliver(DOWN_EVENT);
    expect(outcome).toEqual({ kind: 'sent', status: 200, answer: '{"ok":true}' });
    expect(request).toMatchObject({
      method: 'POST',
      path: `/bot${TOKEN}/sendMessage`,
      headers: { 'content-type': 'application/json' },
    });
    expect(request.json).toEqual({
      chat_id: '-1001234567890',
      parse_mode: 'HTML',
      disable_web_page_preview: true,
      text: [
        '🔴 <b>Lobby is down</b>',
        'connection refused &lt;127.0.0.1:25565&gt; &amp; retried',
        '',
        '<b>Monitor:</b> Lobby',
        '<b>Page:</b> <a href="https://status.acme.test/main">Acme status</a>',
        '',
        '<i>Acme Games · 2025-03-01 14:05 UTC</i>',
      ].join('\n'),
    });
  });

  it('a recovery with downtime and players, and an incident', async () => {
    const recovered = (await deliver(RECOVERED_EVENT)).request.json as { text: string };
    expect(recovered.text).toContain('✅ <b>Lobby is back up after 4 min</b>');
    expect(recovered.text).toContain('<b>Downtime:</b> 4 min 12 s\n<b>Players:</b> 12 / 64 online');
    const incident = (await deliver(INCIDENT_EVENT)).request.json as { text: string };
    expect(incident.text).toContain('<b>Incident:</b> Login queue delays (investigating, minor)');
  });

  it("honours the body's retry_after when there is no Retry-After, and the later of the two when both", async () => {
    const body = JSON.stringify({
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      parameters: { retry_after: 7 },
    });
    expect((await deliver(DOWN_EVENT, { status: 429, body })).outcome).toMatchObject({
      kind: 'retry',
      status: 429,
      afterMs: 7000,
    });
    expect((await deliver(DOWN_EVENT, { status: 429, body, headers: { 'retry-after': '3' } })).outcome).toMatchObject({
      afterMs: 7000,
    });
    expect(
      (await deliver(DOWN_EVENT, { status: 429, body: '{}', headers: { 'retry-after': '3' } })).outcome,
    ).toMatchObject({ afterMs: 3000 });
  });

  it('400 chat not found → dead with the answer kept, and the token never in it', async () => {
    const body = `{"ok":false,"error_code":400,"description":"Bad Request: chat not found for ${TOKEN}"}`;
    const { outcome } = await deliver(DOWN_EVENT, { status: 400, body });
    expect(outcome).toMatchObject({ kind: 'dead', status: 400 });
    expect(outcome.answer).toBe(
      '{"ok":false,"error_code":400,"description":"Bad Request: chat not found for <bot token>"}',
    );
  });

  it('validates its config with clear errors', () => {
    const parse = (config: unknown) => telegramChannel.config.safeParse(config);
    expect(parse({ botToken: TOKEN, chatId: '@acme_status' }).data).toEqual({
      botToken: TOKEN,
      chatId: '@acme_status',
      apiBaseUrl: 'https://api.telegram.org',
    });
    expect(parse({ botToken: 'nope', chatId: 1 }).error?.issues[0]?.message).toMatch(/BotFather/);
    expect(parse({ botToken: TOKEN, chatId: 'general' }).error?.issues[0]?.message).toMatch(/chat id/);
  });
});
