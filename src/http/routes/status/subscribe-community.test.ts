// Communities subscribe their channel, end to end in process: a Discord webhook checked against a fake Discord and
// confirmed at once, its incidents posted as embeds, and unsubscribed when the community deletes the webhook; a Slack
// incoming webhook that gets nothing until the page's admins approve it. One server per dialect, tests in order.
// First: zod's .openapi() extension, before any schema is built.
import '@hono/zod-openapi';

import { afterAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../../../test/fakes/discord-webhook.js';
import { startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { pageSubscribersWarden } from '../../../../test/page-subscribers.js';
import { dialects } from '../../../../test/store-dialects.js';

interface Listed {
  subscribers: { id: string; kind: string; address: string; confirmed: boolean; awaitingApproval: boolean }[];
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`community subscribers on ${dialect.name}`, () => {
    const s = pageSubscribersWarden(dialect);
    const { receivers, subscribeJson, api, postIncident } = s;
    let discord: FakeDiscord;
    afterAll(() => discord?.close());
    const listed = async () =>
      ((await (await api('GET', '/api/v1/pages/main/subscribers')).json()) as Listed).subscribers;

    it('subscribes a Discord webhook Discord knows, sends incidents as embeds, and lets a deleted one go', async () => {
      discord = await startFakeDiscord();
      const wrongToken = discord.webhookUrl.replace(/\/[^/]+$/, '/not-the-token');
      const refused = await subscribeJson('main', { discord: wrongToken }, '192.0.2.40');
      expect(refused.status).toBe(400);
      const problem = (await refused.json()) as { errors: { path: string; message: string }[] };
      expect(problem.errors[0]).toMatchObject({ path: 'discord' });
      expect(problem.errors[0]?.message).toContain('Invalid Webhook Token');

      const res = await subscribeJson('main', { discord: discord.webhookUrl }, '192.0.2.40');
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({
        status: 'confirmed',
        discord: { name: 'Warden', guildId: '81384788765712384', channelId: '81384788765712385' },
      });
      const [shown] = (await listed()).filter((x) => x.kind === 'discord');
      expect(shown).toMatchObject({ confirmed: true, awaitingApproval: false });
      // The token is the webhook's credential: never shown back.
      expect(shown?.address).not.toContain(discord.webhookUrl.split('/').at(-1));

      // Discord's rate limit: the first post answers 429, and the delivery waits its Retry-After and goes.
      discord.rateLimit(1, 0.3);
      const created = await postIncident('Matchmaking is slow');
      expect(created.status).toBe(201);
      const incident = (await created.json()) as { id: string };
      await expect.poll(() => discord.messages.size, { timeout: 5000 }).toBe(1);
      expect(discord.latest()?.body.embeds?.[0]?.title).toContain('Matchmaking is slow');
      expect(discord.requests.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([429, 204]);
      const update = await api('POST', `/api/v1/incidents/${incident.id}/updates`, {
        status: 'identified',
        message: 'A queue worker is stuck; restarting it.',
      });
      expect(update.status).toBe(201);
      await expect.poll(() => discord.messages.size, { timeout: 5000 }).toBe(2);
      const embed = discord.latest()?.body.embeds?.[0];
      expect(embed?.title).toContain('Matchmaking is slow');
      expect(embed?.description).toContain('A queue worker is stuck');

      // The community deletes the webhook: the next delivery finds it gone, and the channel is unsubscribed.
      discord.deleteWebhook();
      expect((await postIncident('Login errors')).status).toBe(201);
      await expect
        .poll(async () => (await listed()).find((x) => x.kind === 'discord')?.confirmed, { timeout: 5000 })
        .toBe(false);
      expect(discord.requests.filter((r) => r.status === 404)).toHaveLength(1);
      // Asked again, Discord says it is gone: refused in Discord's words.
      const gone = await subscribeJson('main', { discord: discord.webhookUrl }, '192.0.2.40');
      expect(gone.status).toBe(400);
      expect(((await gone.json()) as { errors: { message: string }[] }).errors[0]?.message).toContain(
        'Unknown Webhook',
      );
    });

    it('holds a Slack webhook until an admin approves it, then sends it Slack blocks', async () => {
      const slack = await startReceiver({ status: 200, body: 'ok' });
      receivers.push(slack);
      const res = await subscribeJson('main', { slack: `${slack.url}/services/T000/B000/secret-part` }, '192.0.2.41');
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ status: 'pending' });
      const pending = (await listed()).find((x) => x.kind === 'slack');
      expect(pending).toMatchObject({ confirmed: false, awaitingApproval: true });
      expect(pending?.address).not.toContain('secret-part');

      expect((await postIncident('Voice chat drops')).status).toBe(201);
      await s.parts.dispatcher.tick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(slack.requests).toHaveLength(0);

      const approved = await api('POST', `/api/v1/pages/main/subscribers/${pending?.id}/approve`);
      expect(approved.status).toBe(200);
      expect(await approved.json()).toMatchObject({ kind: 'slack', confirmed: true, awaitingApproval: false });
      expect((await postIncident('Store is down')).status).toBe(201);
      await expect.poll(() => slack.requests.length, { timeout: 5000 }).toBe(1);
      const body = slack.requests[0]?.json as { text: string; blocks: { type: string }[] };
      expect(body.text).toContain('Store is down');
      expect(body.blocks[0]?.type).toBe('header');

      // The admins' delete unsubscribes it like any subscriber.
      expect((await api('DELETE', `/api/v1/pages/main/subscribers/${pending?.id}`)).status).toBe(204);
      expect((await listed()).some((x) => x.kind === 'slack')).toBe(false);
    });

    it("answers the page's Discord and Slack forms (no script) with a page saying what happened", async () => {
      const own = await startFakeDiscord();
      try {
        const form = (body: string, client: string) =>
          s.request('/s/main/subscribe', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body,
            client,
          });
        const discordPage = await form(`discord=${encodeURIComponent(own.webhookUrl)}`, '192.0.2.42');
        expect(discordPage.status).toBe(201);
        const discordHtml = await discordPage.text();
        expect(discordHtml).toContain('<h1>Discord channel subscribed</h1>');
        expect(discordHtml).toContain(
          'Subscribed: channel 81384788765712385 in server 81384788765712384, through the webhook “Warden”.',
        );
        expect(discordHtml).toContain(
          '<a href="https://discord.com/channels/81384788765712384/81384788765712385">Open the channel in Discord</a>',
        );
        const wrong = await form(
          `discord=${encodeURIComponent(own.webhookUrl.replace(/[^/]+$/, 'not-the-token'))}`,
          '192.0.2.42',
        );
        expect(wrong.status).toBe(400);
        const wrongHtml = await wrong.text();
        expect(wrongHtml).toContain('<h1>Could not subscribe</h1>');
        expect(wrongHtml).toMatch(/role="alert">.*Invalid Webhook Token/);
        const slackPage = await form(
          `slack=${encodeURIComponent('https://hooks.slack.com/services/T1/B1/x')}`,
          '192.0.2.43',
        );
        expect(slackPage.status).toBe(200);
        const slackHtml = await slackPage.text();
        expect(slackHtml).toContain('<h1>Waiting for approval</h1>');
        expect(slackHtml).toContain(
          'Waiting for the page owner’s approval: nothing is sent to the channel until then.',
        );
      } finally {
        await own.close();
      }
    });
  });
