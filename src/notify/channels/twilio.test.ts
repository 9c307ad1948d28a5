import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BARE_EVENT,
  DOWN_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { SMS_CHARS, smsText, twilioChannel } from './twilio.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const CREATED = { status: 201, body: '{"sid":"SM1","status":"queued"}' };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function deliver(
  event: NotificationEvent,
  answer: Parameters<Receiver['answer']>[0] = CREATED,
  from = '+14155550100',
) {
  receiver.answer(answer);
  receiver.requests.length = 0;
  const config = twilioChannel.config.parse({
    accountSid: SID,
    authToken: TOKEN,
    from,
    to: '+14155550199',
    apiUrl: `${receiver.url}/`,
  });
  const outcome = await twilioChannel.send(event, config, sendContext());
  const request = receiver.requests[0]!;
  return { outcome, request, form: Object.fromEntries(new URLSearchParams(request.raw)) };
}

describe('twilio channel', () => {
  it('a down monitor: one form POST to the account’s Messages, with basic auth', async () => {
    const { outcome, request, form } = await deliver(DOWN_EVENT);
    expect(outcome).toEqual({ kind: 'sent', status: 201, answer: CREATED.body });
    expect(request).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${SID}/Messages.json`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
      },
    });
    expect(form).toEqual({
      To: '+14155550199',
      From: '+14155550100',
      Body: '[Acme Games] Lobby is down: connection refused <127.0.0.1:25565> & retried https://status.acme.test/main',
    });
  });

  it('a Messaging Service sends as MessagingServiceSid; a bare event has no link', async () => {
    const service = `MG${'a'.repeat(32)}`;
    const { form } = await deliver(BARE_EVENT, CREATED, service);
    expect(form).toEqual({
      To: '+14155550199',
      MessagingServiceSid: service,
      Body: '[Acme Games] Test notification from Warden',
    });
    expect((await deliver(RECOVERED_EVENT)).form.Body).toBe(
      '[Acme Games] Lobby is back up after 4 min https://status.acme.test/main',
    );
  });

  it('keeps a message within two SMS segments, the link whole, on one line', () => {
    const long = { ...DOWN_EVENT, reason: `line one\n${'x'.repeat(1000)}` };
    const text = smsText(long);
    expect(text).toHaveLength(SMS_CHARS);
    expect(text).toMatch(/^\[Acme Games\] Lobby is down: line one x+\.\.\. https:\/\/status\.acme\.test\/main$/);
  });

  it('429 with Retry-After → retry then; 400 (an invalid number) → dead with the answer', async () => {
    const limited = await deliver(DOWN_EVENT, { status: 429, headers: { 'retry-after': '2' } });
    expect(limited.outcome).toMatchObject({ kind: 'retry', status: 429, afterMs: 2000 });
    const body = '{"code":21211,"message":"Invalid \'To\' Phone Number","status":400}';
    expect((await deliver(DOWN_EVENT, { status: 400, body })).outcome).toEqual({
      kind: 'dead',
      status: 400,
      error: 'HTTP 400',
      answer: body,
    });
  });

  it('validates its config with clear errors', () => {
    const parse = (config: unknown) => twilioChannel.config.safeParse(config);
    const good = { accountSid: SID, authToken: TOKEN, from: '+14155550100', to: '+14155550199' };
    expect(parse(good).data).toEqual({ ...good, apiUrl: 'https://api.twilio.com' });
    expect(parse({ ...good, accountSid: 'SK1' }).error?.issues[0]?.message).toMatch(/Account SID/);
    expect(parse({ ...good, to: '0155 5550199' }).error?.issues[0]?.message).toMatch(/E\.164/);
    expect(parse({ ...good, from: 'Acme' }).error?.issues[0]?.message).toMatch(/Messaging Service/);
    expect(twilioChannel.secrets).toEqual(['authToken']);
  });
});
