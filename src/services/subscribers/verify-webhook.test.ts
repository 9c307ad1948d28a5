// A webhook subscription's URL: https, or http to a private address the organization may reach; through the target
// policy (a refused address fails before anything is sent); and the endpoint must answer the challenge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { ValidationError } from '../../domain/errors.js';
import { generateWebhookSecret } from '../../notify/channels/webhook.js';
import { verifyWebhook } from './verify-webhook.js';

const page = { slug: 'main', title: 'Main', url: 'http://warden.test/s/main' };
const attempt = (url: string, policy: 'allow' | 'deny') =>
  verifyWebhook({ url, policy, secret: generateWebhookSecret(), page, now: Date.now() });
const refusal = async (work: Promise<void>) => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues[0]?.message ?? '';
};

describe('verifying a webhook subscription', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver((res) => {
      const body = receiver.requests.at(-1)?.json as { data: { challenge: string } };
      res.writeHead(200);
      res.end(body.data.challenge);
    });
  });
  afterAll(() => receiver.close());

  it('takes an endpoint that answers its challenge as the body', async () => {
    await attempt(`${receiver.url}/hook`, 'allow');
    expect(receiver.requests).toHaveLength(1);
  });

  it('refuses http:// to a public name, and any private address where the organization may not reach one', async () => {
    expect(await refusal(attempt('http://hooks.example.com/x', 'allow'))).toContain('https://');
    expect(await refusal(attempt(`${receiver.url}/hook`, 'deny'))).toContain('https://');
    expect(await refusal(attempt('https://127.0.0.1:1/hook', 'deny'))).toContain(
      'refused by policy: 127.0.0.1 is a loopback address',
    );
    expect(receiver.requests).toHaveLength(1);
  });

  it('refuses an endpoint that echoes the request instead of answering the challenge', async () => {
    const echo = await startReceiver((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(echo.requests.at(-1)?.raw);
    });
    try {
      expect(await refusal(attempt(`${echo.url}/hook`, 'allow'))).toContain('did not answer its challenge');
    } finally {
      await echo.close();
    }
  });
});
