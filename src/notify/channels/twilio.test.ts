import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { SMS_CHARS, smsText, twilioChannel } from './twilio.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const CREATED = { status: 201, body: '{"sid":"SM1","status":"queued"}' };
const harness = channelHarness(
  twilioChannel,
  (origin) => ({ accountSid: SID, authToken: TOKEN, from: '+14155550100', to: '+14155550199', apiUrl: `${origin}/` }),
  CREATED,
);

/** Sends `event` (from another sender when told), with the form Twilio received. */
async function deliver(event: NotificationEvent, from?: string) {
  const { outcome, request } = await harness.send(event, CREATED, from ? { from } : {});
  return { outcome, request, form: Object.fromEntries(new URLSearchParams(request.raw)) };
}

describe('twilio channel', () => {
  // 400 is an invalid number: dead with Twilio's answer kept.
  itHonoursTheReceiver(
    harness,
    DOWN_EVENT,
    { status: 400, body: '{"code":21211,"message":"Invalid \'To\' Phone Number","status":400}', error: 'HTTP 400' },
    { retryAfter: 2 },
  );

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
    const { form } = await deliver(BARE_EVENT, service);
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
