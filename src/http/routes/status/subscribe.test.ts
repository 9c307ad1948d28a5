// Page subscribers end to end, in process: the subscribe form and JSON, the double opt-in through a real SMTP server,
// an incident posted through the organization API reaching subscribers (mail with List-Unsubscribe, a signed webhook),
// the one-click unsubscribe, and the abuse limits. One server per dialect, shared by the tests in order.
// First: zod's .openapi() extension, before any schema is built.
import '@hono/zod-openapi';

import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { BASE, pageSubscribersWarden } from '../../../../test/page-subscribers.js';
import { dialects } from '../../../../test/store-dialects.js';
import { composeWarden } from '../../../compose.js';
import { SUBSCRIBER_LIMITS } from '../../../domain/subscriber.js';
import { hashSecret } from '../../../domain/tokens.js';
import { createLogger } from '../../../logger.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`page subscribers on ${dialect.name}`, () => {
    const s = pageSubscribersWarden(dialect);
    const { clock, receivers, request, subscribeJson, api, postIncident, mailTo, linkIn } = s;

    it('subscribes an email by double opt-in, mails its incidents with one-click unsubscribe, and stops after it', async () => {
      const res = await subscribeJson('main', { email: ' Ann@Example.test ' });
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ status: 'pending' });
      const [confirmation] = await mailTo('ann@example.test');
      expect(confirmation?.subject).toBe('Confirm your subscription to Acme status status updates');
      expect(confirmation?.html).toContain('Confirm my subscription');
      const confirmUrl = linkIn(confirmation!, 'subscribe/confirm');
      const token = decodeURIComponent(new URL(confirmUrl).searchParams.get('token') ?? '');
      // Only the mail holds the token: the store keeps its hash.
      const pending = (
        await s.parts.context.store.subscribers.list((await s.parts.context.store.pages.findBySlug('main'))!.id, {
          limit: 10,
        })
      ).find((s) => s.address === 'ann@example.test');
      expect(pending).toMatchObject({ confirmedAt: null, confirmTokenHash: hashSecret(token) });
      expect(JSON.stringify(pending)).not.toContain(token);

      // Asked again: the same answer, and no second mail.
      expect((await subscribeJson('main', { email: 'ann@example.test' })).status).toBe(202);
      const confirmed = await request(confirmUrl);
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain('Subscription confirmed');
      expect((await request(confirmUrl)).status).toBe(404);
      expect(s.smtp.messages.filter((m) => m.to.includes('ann@example.test'))).toHaveLength(1);

      expect((await postIncident('Lobby is lagging')).status).toBe(201);
      const [, notice] = await mailTo('ann@example.test', 2);
      expect(notice?.subject).toMatch(/^\[INCIDENT\] .*Lobby is lagging$/);
      expect(notice?.text).toContain('Lobby is lagging: we are looking into it.');
      expect(notice?.html).toContain('>Unsubscribe</a>');
      const unsubscribeUrl = linkIn(notice!, 'unsubscribe');
      const lines = Object.fromEntries(
        notice!.headerLines.map((line) => [line.key, line.line.replace(/\r\n\s+/g, ' ')]),
      );
      expect(lines['list-unsubscribe']).toBe(`List-Unsubscribe: <${unsubscribeUrl}>`);
      expect(lines['list-unsubscribe-post']).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

      // The GET shows a button and changes nothing; the mail client's one-click POST unsubscribes.
      const page = await request(unsubscribeUrl);
      expect(await page.text()).toContain('<button class="button" type="submit">Unsubscribe</button>');
      const oneClick = await request(unsubscribeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      expect(await oneClick.text()).toContain('Unsubscribed');
      expect((await request(unsubscribeUrl, { method: 'POST' })).status).toBe(404);

      expect((await postIncident('Proxy restarted')).status).toBe(201);
      await s.parts.dispatcher.tick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(s.smtp.messages.filter((m) => m.to.includes('ann@example.test'))).toHaveLength(2);
    });

    it('subscribes a webhook that answers its challenge, and signs what it gets per Standard Webhooks', async () => {
      const receiver = await startReceiver((res) => {
        const last = receiver.requests.at(-1)?.json as { type?: string; data?: { challenge?: string } } | undefined;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(last?.type === 'subscription.verify' ? JSON.stringify({ challenge: last.data?.challenge }) : '{}');
      });
      receivers.push(receiver);
      const res = await subscribeJson('main', { webhook: `${receiver.url}/hook` }, '192.0.2.20');
      expect(res.status).toBe(201);
      const answer = (await res.json()) as { secret: string; unsubscribeUrl: string };
      expect(answer.secret).toMatch(/^whsec_/);
      const hook = new Webhook(answer.secret);
      const [verify] = receiver.requests;
      expect(hook.verify(verify!.raw, verify!.headers as Record<string, string>)).toMatchObject({
        type: 'subscription.verify',
        data: { page: { slug: 'main' } },
      });

      expect((await postIncident('Database failover')).status).toBe(201);
      await expect.poll(() => receiver.requests.length, { timeout: 5000 }).toBe(2);
      const delivered = receiver.requests[1]!;
      expect(hook.verify(delivered.raw, delivered.headers as Record<string, string>)).toMatchObject({
        type: 'incident.created',
        data: { incident: { title: 'Database failover' }, pages: [{ slug: 'main', url: `${BASE}/s/main` }] },
      });

      // An endpoint that takes anything but does not answer the challenge is not subscribed.
      const lazy = await startReceiver({ status: 200, body: 'ok' });
      receivers.push(lazy);
      const refused = await subscribeJson('main', { webhook: `${lazy.url}/hook` }, '192.0.2.20');
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('webhook');
      expect((await request(answer.unsubscribeUrl, { method: 'POST' })).status).toBe(200);
    });

    it('shows the form on the page, answers a form post with a page, and the organization API manages subscribers', async () => {
      const html = await (await request('/s/main')).text();
      expect(html).toContain('<form method="post" action="/s/main/subscribe">');
      expect(html).toContain('name="email"');
      expect(html).toContain('<a href="#subscribe">Subscribe</a>');
      expect(await (await request('/s/closed')).text()).not.toContain('id="subscribe"');
      expect(
        ((await (await request('/s/main/status.json')).json()) as { page: { subscribe?: unknown } }).page.subscribe,
      ).toEqual({ email: true, webhook: true, discord: true, slack: true });

      const form = await request('/s/main/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=bob%40example.test&webhook=',
        client: '192.0.2.30',
      });
      expect(form.status).toBe(200);
      expect(form.headers.get('content-type')).toContain('text/html');
      expect(await form.text()).toContain('Check your inbox');
      await mailTo('bob@example.test');

      // On the page's custom domain, the same at the root.
      const onDomain = { headers: { host: 'status.acme.test' } };
      expect(await (await s.parts.app.request('http://status.acme.test/', onDomain)).text()).toContain(
        '<form method="post" action="/subscribe">',
      );
      const viaDomain = await s.parts.app.request('http://status.acme.test/subscribe', {
        method: 'POST',
        headers: { host: 'status.acme.test', 'x-forwarded-for': '192.0.2.32', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'erin@example.test' }),
      });
      expect(viaDomain.status).toBe(202);
      await mailTo('erin@example.test');

      const listed = await api('GET', '/api/v1/pages/main/subscribers');
      expect(listed.status).toBe(200);
      const list = (await listed.json()) as {
        subscribers: { id: string; address: string; confirmed: boolean }[];
        counts: { pending: number };
      };
      const bob = list.subscribers.find((s) => s.address === 'bob@example.test');
      expect(bob).toMatchObject({ confirmed: false });
      expect(JSON.stringify(list)).not.toMatch(/whsec_|token/i);
      expect((await api('DELETE', `/api/v1/pages/main/subscribers/${bob!.id}`)).status).toBe(204);
      expect((await api('DELETE', `/api/v1/pages/main/subscribers/${bob!.id}`)).status).toBe(404);

      // A page takes subscriptions once the API turns them on.
      const created = await api('POST', '/api/v1/pages', { slug: 'later', title: 'Later' });
      expect(await created.json()).toMatchObject({ subscriptions: false });
      expect((await subscribeJson('later', { email: 'carol@example.test' }, '192.0.2.31')).status).toBe(403);
      const patched = await api('PATCH', '/api/v1/pages/later', { subscriptions: true });
      expect(await patched.json()).toMatchObject({ subscriptions: true });
      expect((await subscribeJson('later', { email: 'carol@example.test' }, '192.0.2.31')).status).toBe(202);
    });

    it('refuses protected pages, limits each client, caps pending subscriptions, and answers without a mail server', async () => {
      const privatePage = await subscribeJson('private', { email: 'dan@example.test' }, '192.0.2.40');
      expect(privatePage.status).toBe(403);
      expect(((await privatePage.json()) as { detail: string }).detail).toContain('password-protected');
      expect(
        (await subscribeJson('main', { email: 'x@example.test', webhook: 'https://x.test' }, '192.0.2.40')).status,
      ).toBe(400);

      // The rate limit: the sixth request in ten minutes from one address is refused.
      for (let i = 0; i < SUBSCRIBER_LIMITS.subscribeRequests; i++)
        expect((await subscribeJson('main', { email: `r${i}@example.test` }, '192.0.2.41')).status).toBe(202);
      const limited = await subscribeJson('main', { email: 'r9@example.test' }, '192.0.2.41');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

      // Ten awaiting confirmation from one address, over two windows: the eleventh is refused.
      for (let i = 0; i < SUBSCRIBER_LIMITS.pendingPerClient; i++) {
        if (i > 0 && i % SUBSCRIBER_LIMITS.subscribeRequests === 0) s.offset += SUBSCRIBER_LIMITS.subscribeWindowMs;
        expect((await subscribeJson('main', { email: `p${i}@example.test` }, '192.0.2.42')).status).toBe(202);
      }
      s.offset += SUBSCRIBER_LIMITS.subscribeWindowMs;
      const capped = await subscribeJson('main', { email: 'p99@example.test' }, '192.0.2.42');
      expect(capped.status).toBe(429);
      expect(((await capped.json()) as { type: string }).type).toContain('too-many-pending');

      // A page with as many pending subscriptions as it may hold takes no new one.
      const busy = (await s.opened.store.pages.findBySlug('busy'))!;
      await s.opened.store.transaction(async (tx) => {
        for (let i = 0; i < SUBSCRIBER_LIMITS.pendingPerPage; i++)
          await tx.subscribers.insert({
            id: `sub_${String(i).padStart(16, '0')}`,
            organizationId: s.organizationId,
            pageId: busy.id,
            format: 'warden',
            kind: 'email',
            address: `b${i}@example.test`,
            secret: null,
            confirmTokenHash: 'h',
            unsubscribeToken: `u${i}`,
            confirmedAt: null,
            expiresAt: clock.now() + 1000,
            requestedBy: `10.1.${i >> 8}.${i & 255}`,
            createdAt: clock.now(),
          });
      });
      expect((await subscribeJson('busy', { email: 'late@example.test' }, '192.0.2.43')).status).toBe(429);

      // Without an SMTP server: email is refused and the page offers webhooks only.
      const mailless = composeWarden({
        store: s.opened.store,
        clock,
        logger: createLogger('silent'),
        baseUrl: () => BASE,
      });
      await mailless.pages.start();
      try {
        const res = await mailless.app.request(`${BASE}/s/main/subscribe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'e@example.test' }),
        });
        expect(res.status).toBe(503);
        const html = await (await mailless.app.request(`${BASE}/s/main`)).text();
        expect(html).toContain('name="webhook"');
        expect(html).not.toContain('name="email"');
      } finally {
        await mailless.pages.stop();
        await mailless.ingest.close();
        mailless.outbox.close();
      }
    });

    it('lets an unconfirmed subscription expire after 48 hours, and retention deletes it', async () => {
      expect((await subscribeJson('main', { email: 'late@example.test' }, '192.0.2.50')).status).toBe(202);
      const [mail] = await mailTo('late@example.test');
      s.offset += SUBSCRIBER_LIMITS.confirmWithinMs + 1000;
      expect((await request(linkIn(mail!, 'subscribe/confirm'))).status).toBe(404);
      const main = (await s.opened.store.pages.findBySlug('main'))!;
      expect(await s.opened.store.subscribers.findByAddress(main.id, 'email', 'late@example.test')).toBeDefined();
      expect((await s.parts.retention.prune()).subscribers).toBeGreaterThan(0);
      expect(await s.opened.store.subscribers.findByAddress(main.id, 'email', 'late@example.test')).toBeUndefined();
    });
  });
