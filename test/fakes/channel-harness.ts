// One channel against a fake receiver, for a channel's own test file: the receiver runs for the file's tests, and
// send() delivers an event with the receiver answering as told, handing back the outcome and the request it made.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChannelDefinition, NotificationEvent, SendOutcome } from '../../src/notify/channels/channel.js';
import { type Answer, type ReceivedRequest, type Receiver, sendContext, startReceiver } from './notify-receivers.js';

export interface ChannelHarness {
  readonly receiver: Receiver;
  /**
   * Sends `event` through a channel configured by the example (with `config`'s fields over it: another sender, say),
   * the receiver answering `answer` (the harness's initial answer unless told).
   */
  send(
    event: NotificationEvent,
    answer?: Answer,
    config?: Record<string, unknown>,
  ): Promise<{ outcome: SendOutcome; request: ReceivedRequest }>;
}

export function channelHarness(
  // biome-ignore lint/suspicious/noExplicitAny: any channel, whatever its config type.
  channel: ChannelDefinition<any>,
  example: (origin: string) => Record<string, unknown>,
  initial: Answer = { status: 200 },
): ChannelHarness {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(initial);
  });
  afterAll(() => receiver.close());
  return {
    get receiver() {
      return receiver;
    },
    async send(event, answer = initial, config = {}) {
      receiver.answer(answer);
      receiver.requests.length = 0;
      const parsed = channel.config.parse({ ...example(receiver.url), ...config });
      const outcome = await channel.send(event, parsed, sendContext());
      return { outcome, request: receiver.requests[0]! };
    },
  };
}

/** A receiver's refusal: its status and body, and the error the log keeps when the channel reads a reason out of it. */
export interface Refusal {
  status: number;
  body: string;
  error?: string;
}

/** The receiver's 429: the Retry-After it sends (seconds; 7 unless told) and its body. */
export interface RateLimit {
  retryAfter: number;
  body?: string;
}

/** A test that the channel honours its receiver: 429 with Retry-After → retry then; `refusal` → dead, its reason kept. */
export function itHonoursTheReceiver(
  harness: ChannelHarness,
  event: NotificationEvent,
  refusal: Refusal,
  limit: RateLimit = { retryAfter: 7 },
): void {
  it(`429 waits for its Retry-After; ${refusal.status} is dead with the receiver's reason kept`, async () => {
    const answer = { status: 429, headers: { 'retry-after': String(limit.retryAfter) }, body: limit.body ?? '' };
    const limited = await harness.send(event, answer);
    expect(limited.outcome).toMatchObject({ kind: 'retry', status: 429, afterMs: limit.retryAfter * 1000 });
    const refused = await harness.send(event, { status: refusal.status, body: refusal.body });
    expect(refused.outcome).toMatchObject({
      kind: 'dead',
      status: refusal.status,
      answer: refusal.body,
      ...(refusal.error === undefined ? {} : { error: refusal.error }),
    });
  });
}
