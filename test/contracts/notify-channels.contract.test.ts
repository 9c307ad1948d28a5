// The contract every channel of the notification registry keeps: its secrets and targets are config fields, its config
// reads back as stored, and one POST to a generic fake maps 2xx → sent, 5xx/429/no answer → retry, other 4xx → dead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChannelDefinition } from '../../src/notify/channels/channel.js';
import { ANSWER_CHARS } from '../../src/notify/channels/http-send.js';
import { CHANNELS } from '../../src/notify/channels/registry.js';
import { BARE_EVENT, DOWN_EVENT, type Receiver, sendContext, startReceiver } from '../fakes/notify-receivers.js';

interface Fixture {
  /** An example config aimed at the fake's origin. */
  example: (origin: string) => Record<string, unknown>;
  /** false for a channel that does not speak HTTP (email: its own tests run a real SMTP server). */
  http: boolean;
  /** The method of its one request, when not POST (Matrix sends with PUT). */
  method?: string;
}

const http = (example: Fixture['example']): Fixture => ({ example, http: true });

const FIXTURES: Record<string, Fixture> = {
  webhook: http((origin) => ({
    url: `${origin}/hooks/warden`,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    headers: { authorization: 'Bearer abc' },
  })),
  discord: http((origin) => ({ url: `${origin}/api/webhooks/1/tok` })),
  slack: http((origin) => ({ url: `${origin}/services/T0/B0/xyz` })),
  teams: http((origin) => ({ url: `${origin}/workflows/abc/triggers/manual/paths/invoke` })),
  telegram: http((origin) => ({
    botToken: '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    chatId: -1001234567890,
    apiBaseUrl: origin,
  })),
  ntfy: http((origin) => ({ url: `${origin}/warden-alerts`, token: 'tk_abcdef' })),
  email: {
    example: () => ({
      to: 'ops@acme.test',
      from: 'warden@acme.test',
      host: 'smtp.acme.test',
      username: 'warden',
      password: 'pw',
    }),
    http: false,
  },
  pushover: http((origin) => ({
    token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    user: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
    apiBaseUrl: origin,
  })),
  gotify: http((origin) => ({ url: `${origin}/gotify`, token: 'AbCdEf1234567.8' })),
  matrix: {
    ...http((origin) => ({ homeserverUrl: origin, accessToken: 'syt_d2FyZGVu_abc', roomId: '!ops:example.org' })),
    method: 'PUT',
  },
  pagerduty: http((origin) => ({ routingKey: 'R0123456789abcdef0123456789abcde', apiUrl: origin })),
  opsgenie: http((origin) => ({ apiKey: 'eb243592-faa2-4ba2-a551-1afdf565c889', apiUrl: origin })),
  twilio: http((origin) => ({
    accountSid: 'AC0123456789abcdef0123456789abcdef',
    authToken: 'f00dfeed',
    from: '+14155550100',
    to: '+14155550199',
    apiUrl: origin,
  })),
  mattermost: http((origin) => ({ url: `${origin}/hooks/xfa1k3y` })),
  rocketchat: http((origin) => ({ url: `${origin}/hooks/6Fz9kQ/xT0k3nS3cr3t` })),
  googlechat: http((origin) => ({ url: `${origin}/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D` })),
};

/** Fields whose names say where a message goes: each must be a declared target. */
const ADDRESS_FIELD = /url|host|port|chat/i;
const registry = Object.entries(CHANNELS) as unknown as [string, ChannelDefinition][];

describe('the notification channel contract', () => {
  it('has a fixture for every channel of the registry, and only those', () => {
    expect(registry.map(([type]) => type).filter((type) => !FIXTURES[type])).toEqual([]);
    expect(Object.keys(FIXTURES).filter((type) => !(type in CHANNELS))).toEqual([]);
  });

  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  for (const [type, definition] of registry) {
    const fixture = FIXTURES[type];
    describe(type, () => {
      if (!fixture)
        return void it('has a fixture', () => expect.fail(`add a fixture for ${type} to ${import.meta.url}`));
      const send = async (answer: Parameters<Receiver['answer']>[0], timeoutMs?: number, event = DOWN_EVENT) => {
        receiver.answer(answer);
        receiver.requests.length = 0;
        return definition.send(event, definition.config.parse(fixture.example(receiver.url)), sendContext(timeoutMs));
      };

      it('is registered under its own type', () => expect(definition.type).toBe(type));

      it(`declares its secrets (${definition.secrets.join(', ')}) and targets (${definition.targets.join(', ')}) among its config fields`, () => {
        expect(definition.config).toBeInstanceOf(z.ZodObject);
        const fields = Object.keys((definition.config as unknown as z.ZodObject).shape);
        expect(
          definition.secrets.filter((field) => !fields.includes(field)),
          'secrets that are not config fields',
        ).toEqual([]);
        expect(
          definition.targets.filter((field) => !fields.includes(field)),
          'targets that are not config fields',
        ).toEqual([]);
        expect(definition.secrets.length, 'every channel holds a secret').toBeGreaterThan(0);
        expect(definition.targets.length, 'and says where it goes').toBeGreaterThan(0);
        const addresses = fields.filter((field) => ADDRESS_FIELD.test(field));
        expect(
          addresses.filter((field) => !definition.targets.includes(field) && !definition.secrets.includes(field)),
          'address fields neither target nor secret',
        ).toEqual([]);
      });

      it('reads its example config back as stored, and rejects unknown fields', () => {
        const parsed = definition.config.parse(fixture.example('http://127.0.0.1:1'));
        expect(definition.config.parse(JSON.parse(JSON.stringify(parsed)))).toStrictEqual(parsed);
        expect(definition.config.safeParse({ ...parsed, surprise: 1 }).success).toBe(false);
      });

      if (!fixture.http) return;

      it(`2xx → sent, one ${fixture.method ?? 'POST'}`, async () => {
        expect(await send({ status: 204 })).toMatchObject({ kind: 'sent', status: 204 });
        expect(receiver.requests.map((request) => request.method)).toEqual([fixture.method ?? 'POST']);
      });

      it('sends an event with nothing optional', async () => {
        expect(await send({ status: 200 }, 5000, BARE_EVENT)).toMatchObject({ kind: 'sent' });
        const request = receiver.requests[0]!;
        // A form (Twilio) carries the title encoded: read its values.
        const form = request.headers['content-type'] === 'application/x-www-form-urlencoded';
        const body = form ? [...new URLSearchParams(request.raw).values()].join('\n') : request.raw;
        expect(body + (request.headers.title ?? ''), 'the title, in the body or a header').toContain(
          'Test notification from Warden',
        );
      });

      it('shows its message template: the rendered title and body reach the receiver', async () => {
        const templated = definition.config.parse({
          ...fixture.example(receiver.url),
          template: { title: 'TPL {{monitor.name}} title', body: 'TPL body of {{kindLabel}}' },
        });
        receiver.answer({ status: 200 });
        receiver.requests.length = 0;
        expect(await definition.send(DOWN_EVENT, templated, sendContext())).toMatchObject({ kind: 'sent' });
        const request = receiver.requests[0]!;
        const form = request.headers['content-type'] === 'application/x-www-form-urlencoded';
        const text =
          (form ? [...new URLSearchParams(request.raw).values()].join('\n') : request.raw) +
          (request.headers.title ?? '');
        // JSON bodies may escape characters; the template's words are plain ASCII.
        expect(text).toContain('TPL Lobby title');
        expect(text).toContain('TPL body of Monitor down');
      });

      it('500 → retry', async () => {
        expect(await send({ status: 500, body: 'oops' })).toMatchObject({ kind: 'retry', status: 500, answer: 'oops' });
      });

      it('429 with Retry-After: 3 → retry after 3000 ms', async () => {
        expect(await send({ status: 429, headers: { 'retry-after': '3' } })).toMatchObject({
          kind: 'retry',
          status: 429,
          afterMs: 3000,
        });
      });

      it('404 → dead, with the answer kept', async () => {
        expect(await send({ status: 404, body: 'no such hook' })).toMatchObject({
          kind: 'dead',
          status: 404,
          answer: 'no such hook',
        });
      });

      it('a receiver that never answers → retry once the signal aborts', async () => {
        const started = performance.now();
        expect(await send('never', 200)).toMatchObject({ kind: 'retry', status: null, error: 'timed out' });
        expect(performance.now() - started).toBeLessThan(2000);
      });

      it('keeps only the first characters of a huge answer', async () => {
        const outcome = await send({ status: 400, body: 'x'.repeat(1_000_000) });
        expect(outcome.kind).toBe('dead');
        expect(outcome.answer).toHaveLength(ANSWER_CHARS + 1);
      });
    });
  }
});
