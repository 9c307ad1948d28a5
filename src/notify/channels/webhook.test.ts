import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AT,
  DOWN_EVENT,
  INCIDENT_EVENT,
  RECOVERED_EVENT,
  type Receiver,
  sendContext,
  startReceiver,
} from '../../../test/fakes/notify-receivers.js';
import { generateWebhookSecret, webhookChannel } from './webhook.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 204 });
});
afterAll(() => receiver.close());

async function deliver(event = DOWN_EVENT, secret = SECRET) {
  receiver.requests.length = 0;
  const config = webhookChannel.config.parse({
    url: `${receiver.url}/hooks/warden?x=1`,
    secret,
    headers: { Authorization: 'Bearer abc' },
  });
  const ctx = sendContext();
  const outcome = await webhookChannel.send(event, config, ctx);
  return { outcome, request: receiver.requests[0]!, ctx };
}

describe('webhook channel', () => {
  it('posts the event as signed JSON, verified by the standardwebhooks library', async () => {
    const { outcome, request, ctx } = await deliver();
    expect(outcome).toEqual({ kind: 'sent', status: 204, answer: '' });
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/warden?x=1' });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer abc',
      'webhook-id': 'evt_down_1',
      'webhook-timestamp': String(Math.floor(ctx.now / 1000)),
    });
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.json).toEqual({ type: 'monitor.down', timestamp: new Date(AT).toISOString(), data: DOWN_EVENT });
    const verified = new Webhook(SECRET).verify(request.raw, request.headers as Record<string, string>);
    expect(verified).toEqual(request.json);
  });

  it('a tampered body, or another secret, fails verification', async () => {
    const { request } = await deliver();
    const headers = request.headers as Record<string, string>;
    expect(() => new Webhook(SECRET).verify(request.raw.replace('Lobby', 'Lobbx'), headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(request.raw, headers)).toThrow();
  });

  it('keeps the id stable across retries of one event, so receivers dedupe', async () => {
    const first = (await deliver(RECOVERED_EVENT)).request;
    const second = (await deliver(RECOVERED_EVENT)).request;
    expect(first.headers['webhook-id']).toBe('evt_up_1');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(first.json).toMatchObject({
      type: 'monitor.recovered',
      data: { monitor: { downtimeMs: 252_000, players: { online: 12, max: 64 } } },
    });
  });

  it('sends incidents the same way', async () => {
    const { request } = await deliver(INCIDENT_EVENT);
    expect(request.json).toMatchObject({
      type: 'incident.created',
      data: { incident: { title: 'Login queue delays' } },
    });
    expect(new Webhook(SECRET).verify(request.raw, request.headers as Record<string, string>)).toBeTruthy();
  });

  it('validates its config with clear errors', () => {
    const parse = (config: unknown) => webhookChannel.config.safeParse(config);
    expect(parse({ url: 'https://x.test/h', secret: generateWebhookSecret() }).success).toBe(true);
    expect(parse({ url: 'https://x.test/h', secret: 'hunter2' }).error?.issues[0]?.message).toMatch(/whsec_/);
    expect(parse({ url: 'https://x.test/h', secret: 'whsec_c2hvcnQ=' }).error?.issues[0]?.message).toMatch(
      /24 to 64 bytes/,
    );
    expect(parse({ url: 'ftp://x.test/h', secret: SECRET }).error?.issues[0]?.message).toMatch(/http/);
    expect(
      parse({ url: 'https://x.test/h', secret: SECRET, headers: { 'webhook-id': 'x' } }).error?.issues[0]?.message,
    ).toMatch(/set by Warden/);
    expect(parse({ url: 'https://x.test/h', secret: SECRET, headers: { a: 'b\r\nc: d' } }).success).toBe(false);
  });
});
