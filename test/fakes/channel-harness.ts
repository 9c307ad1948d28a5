// One channel against a fake receiver, for a channel's own test file: the receiver runs for the file's tests, and
// send() delivers an event with the receiver answering as told, handing back the outcome and the request it made.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChannelDefinition, NotificationEvent, SendOutcome } from '../../src/notify/channels/channel.js';
import { type Answer, type ReceivedRequest, type Receiver, sendContext, startReceiver } from './notify-receivers.js';

export interface ChannelHarness {
  readonly receiver: Receiver;
  send(event: NotificationEvent, answer?: Answer): Promise<{ outcome: SendOutcome; request: ReceivedRequest }>;
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
    async send(event, answer = initial) {
      receiver.answer(answer);
      receiver.requests.length = 0;
      const outcome = await channel.send(event, channel.config.parse(example(receiver.url)), sendContext());
      return { outcome, request: receiver.requests[0]! };
    },
  };
}

/** A test that the channel honours its receiver: 429 with Retry-After → retry then; `refusal` → dead, its reason kept. */
export function itHonoursTheReceiver(
  harness: ChannelHarness,
  event: NotificationEvent,
  refusal: { status: number; body: string },
): void {
  it(`429 waits for its Retry-After; ${refusal.status} is dead with the receiver's reason kept`, async () => {
    const limited = await harness.send(event, { status: 429, headers: { 'retry-after': '7' } });
    expect(limited.outcome).toMatchObject({ kind: 'retry', status: 429, afterMs: 7000 });
    const refused = await harness.send(event, refusal);
    expect(refused.outcome).toMatchObject({ kind: 'dead', status: refusal.status, answer: refusal.body });
  });
}
