// One channel against a fake receiver, for a channel's own test file: the receiver runs for the file's tests, and
// send() delivers an event with the receiver answering as told, handing back the outcome and the request it made.
import { afterAll, beforeAll } from 'vitest';
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
