// A channel with a message template, end to end against the fake receiver: the text channels send the rendered title
// and body in place of Warden's words (no fact list), the webhook keeps its event and adds `message`.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AT, DOWN_EVENT, type Receiver, sendContext, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { discordChannel } from './discord.js';
import { ntfyChannel } from './ntfy.js';
import { telegramChannel } from './telegram.js';
import { webhookChannel } from './webhook.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const template = {
  title: '{{kindLabel}}: {{monitor.name}} [{{organization.key}}]',
  body: '{{monitor.name}} ({{monitor.type}}) went {{state}}.\nWhy: {{reason}}\nSee {{links.page}}',
};
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ status: 204 });
});
afterAll(() => receiver.close());

describe('a channel with a message template', () => {
  it('discord: the embed shows the rendered title and body, escaped as Markdown, without fields', async () => {
    receiver.requests.length = 0;
    const config = discordChannel.config.parse({ url: `${receiver.url}/api/webhooks/1/a`, template });
    expect(await discordChannel.send(DOWN_EVENT, config, sendContext())).toMatchObject({ kind: 'sent' });
    const embed = (receiver.requests[0]!.json as { embeds: Record<string, unknown>[] }).embeds[0];
    expect(embed).toMatchObject({
      title: 'Monitor down: Lobby [acme]',
      description: expect.stringMatching(/^Lobby \\\(minecraft\\-java\\\) went down\.\nWhy: connection refused/),
      fields: [],
      footer: { text: 'Acme Games' },
      timestamp: new Date(AT).toISOString(),
    });
  });

  it('ntfy: the Title header and the body are the template’s', async () => {
    receiver.requests.length = 0;
    const config = ntfyChannel.config.parse({ url: `${receiver.url}/alerts`, template: { title: '{{title}}!' } });
    await ntfyChannel.send(DOWN_EVENT, config, sendContext());
    expect(receiver.requests[0]!.headers).toMatchObject({ title: 'Lobby is down!' });
  });

  it('telegram: markup in the template or the fields is escaped by the channel, not interpreted', async () => {
    receiver.requests.length = 0;
    const config = telegramChannel.config.parse({
      botToken: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
      chatId: 42,
      apiBaseUrl: receiver.url,
      template: { title: '<b>{{monitor.name}}</b>', body: '<a href="x">{{reason}}</a>' },
    });
    await telegramChannel.send(DOWN_EVENT, config, sendContext());
    const { text } = receiver.requests[0]!.json as { text: string };
    expect(text).toContain('<b>&lt;b&gt;Lobby&lt;/b&gt;</b>');
    expect(text).toContain(
      '&lt;a href=&quot;x&quot;&gt;connection refused &lt;127.0.0.1:25565&gt; &amp; retried&lt;/a&gt;',
    );
  });

  it('webhook: `data` is the event unchanged, `message` what the template rendered, all signed', async () => {
    receiver.requests.length = 0;
    const config = webhookChannel.config.parse({ url: `${receiver.url}/hooks`, secret: SECRET, template });
    expect(await webhookChannel.send(DOWN_EVENT, config, sendContext())).toMatchObject({ kind: 'sent' });
    const request = receiver.requests[0]!;
    const body = new Webhook(SECRET).verify(request.raw, request.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(body.data).toEqual(JSON.parse(JSON.stringify(DOWN_EVENT)));
    expect(body.message).toEqual({
      title: 'Monitor down: Lobby [acme]',
      body: expect.stringMatching(/^Lobby \(minecraft-java\) went down\.\nWhy: connection refused .*\nSee https:/),
    });
  });
});
