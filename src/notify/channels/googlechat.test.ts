import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { AT, BARE_EVENT, DOWN_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { googleChatChannel } from './googlechat.js';

const webhook = '/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D';
const harness = channelHarness(googleChatChannel, (origin) => ({ url: `${origin}${webhook}` }), {
  status: 200,
  body: '{"name":"spaces/AAAAx1/messages/m1","thread":{"name":"spaces/AAAAx1/threads/t1"}}',
});

interface ChatMessage {
  fallbackText: string;
  cardsV2: { cardId: string; card: { header: unknown; sections: { widgets: unknown[] }[] } }[];
  thread: { threadKey: string };
}

async function deliver(event: NotificationEvent) {
  const { outcome, request } = await harness.send(event);
  expect(outcome).toMatchObject({ kind: 'sent', status: 200 });
  expect(request).toMatchObject({
    method: 'POST',
    path: `${webhook}&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD&requestId=${event.id}`,
    headers: { 'content-type': 'application/json' },
  });
  return request.json as ChatMessage;
}

const button = {
  buttonList: {
    buttons: [{ text: 'Open Acme status', onClick: { openLink: { url: 'https://status.acme.test/main' } } }],
  },
};
const small = (time = '14:05') => ({
  textParagraph: { text: `<font color="#6b7280">Acme Games · 2025-03-01 ${time} UTC</font>` },
});
const page = { decoratedText: { topLabel: 'Page', text: '<a href="https://status.acme.test/main">Acme status</a>' } };

describe('google chat channel', () => {
  itHonoursTheReceiver(harness, DOWN_EVENT, {
    status: 400,
    body: '{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}',
  });

  it('a down monitor: a card with the reason escaped, the facts and a button, in the outage thread', async () => {
    expect(await deliver(DOWN_EVENT)).toEqual({
      fallbackText: '🔴 Lobby is down',
      cardsV2: [
        {
          cardId: 'warden',
          card: {
            header: { title: '🔴 Lobby is down', subtitle: 'Acme Games' },
            sections: [
              {
                widgets: [
                  { textParagraph: { text: 'connection refused &lt;127.0.0.1:25565&gt; &amp; retried' } },
                  { decoratedText: { topLabel: 'Monitor', text: 'Lobby' } },
                  page,
                  button,
                  small(),
                ],
              },
            ],
          },
        },
      ],
      thread: { threadKey: `monitor-mon_1-${AT}` },
    });
  });

  it('its recovery and the reminders between reply in the same thread', async () => {
    const recovered = await deliver({ ...RECOVERED_EVENT, at: AT + 252_000 });
    expect(recovered.thread).toEqual({ threadKey: `monitor-mon_1-${AT}` });
    expect(recovered.fallbackText).toBe('✅ Lobby is back up after 4 min');
    expect(recovered.cardsV2[0]!.card.sections[0]!.widgets).toEqual([
      { decoratedText: { topLabel: 'Monitor', text: 'Lobby' } },
      page,
      { decoratedText: { topLabel: 'Downtime', text: '4 min 12 s' } },
      { decoratedText: { topLabel: 'Players', text: '12 / 64 online' } },
      button,
      small('14:09'),
    ]);
    const reminder = { ...DOWN_EVENT, id: 'evt_rem_1', kind: 'monitor.reminder' as const, at: AT + 60_000 };
    expect((await deliver({ ...reminder, downSince: AT })).thread).toEqual({ threadKey: `monitor-mon_1-${AT}` });
  });

  it('the next outage starts a thread of its own', async () => {
    const later = await deliver({ ...DOWN_EVENT, id: 'evt_down_2', at: AT + 3_600_000 });
    expect(later.thread).toEqual({ threadKey: `monitor-mon_1-${AT + 3_600_000}` });
  });

  it('an event with nothing optional: the header and the small print', async () => {
    const message = await deliver(BARE_EVENT);
    expect(message.fallbackText).toBe('🔵 Test notification from Warden');
    expect(message.cardsV2[0]!.card).toEqual({
      header: { title: '🔵 Test notification from Warden', subtitle: 'Acme Games' },
      sections: [{ widgets: [small()] }],
    });
    expect(message.thread).toEqual({ threadKey: 'evt_test_1' });
  });

  it('a retry sends the same request id, so Google Chat answers with the message it already made', async () => {
    const first = await harness.send(DOWN_EVENT, { status: 503 });
    const again = await harness.send(DOWN_EVENT);
    expect(first.outcome).toMatchObject({ kind: 'retry', status: 503 });
    expect(again.request.path).toBe(first.request.path);
    expect(again.request.raw).toBe(first.request.raw);
  });
});
