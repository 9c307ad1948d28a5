// The system SMTP server in tenants' hands, through a real server and a real SMTP exchange (issue 32, item 2). With two
// organizations on the database, an email channel made through the API without a host of its own: its tests and alerts
// go only to recipients who confirmed (the others get a confirmation link, once), always from WARDEN_SMTP_FROM with the
// channel's `from` as Reply-To and the organization named in the subject; a one-click unsubscribe stops it for good;
// tests past the limit answer 429; WARDEN_SMTP_TENANTS=deny refuses such channels with a 400 naming config.host.
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_MAIL_LIMITS } from '../../src/domain/system-mail.js';
import { type FakeSmtpServer, startSmtpFake } from '../fakes/smtp-server.js';
import { seed } from '../seed.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { type Delivery, linkIn, SPOOFING_CHANNEL, toOf, YAML } from './hardening-smtp-harness.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`mail through the system SMTP server on ${dialect.name}`, () => {
    let smtp: FakeSmtpServer;
    let s: SeededWarden;
    /** The messages received since the last call. */
    let seen = 0;
    const fresh = async (count: number): Promise<ParsedMail[]> => {
      await expect.poll(() => smtp.messages.length - seen, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
      // Nothing more than asked for comes meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const taken = smtp.messages.slice(seen);
      seen = smtp.messages.length;
      expect(taken).toHaveLength(count);
      return Promise.all(taken.map((m) => m.parse()));
    };
    const api = (method: string, path: string, body?: unknown, url = s.url) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${s.writeKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const test = async (key: string, url = s.url) => {
      const res = await api('POST', `/api/v1/notification-channels/${key}/test`, undefined, url);
      expect(res.status).toBe(200);
      return (await res.json()) as { outcome: string; delivery: Delivery };
    };
    const deliveries = async (key: string) =>
      (
        (await (await api('GET', `/api/v1/notification-channels/${key}/deliveries`)).json()) as {
          deliveries: Delivery[];
        }
      ).deliveries;

    beforeAll(async () => {
      smtp = await startSmtpFake();
      s = await startSeededWarden(dialect, YAML, {
        WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`,
        WARDEN_SMTP_FROM: 'Operator status <status@operator.test>',
      });
      // Another tenant: the database now holds two organizations.
      await seed(s.opened.store, 'organization: { key: beta, name: Beta }');
    });
    afterAll(async () => {
      await s?.close();
      await smtp?.close();
    });

    it("mails a tenant channel's unconfirmed recipients a confirmation link instead of its test, once", async () => {
      expect((await api('POST', '/api/v1/notification-channels', SPOOFING_CHANNEL)).status).toBe(201);
      const first = await test('phish');
      expect(first.outcome).toBe('skipped');
      expect(first.delivery).toMatchObject({
        status: 'skipped',
        lastError: 'no confirmed recipient: 2 of 2 recipients skipped as unconfirmed (2 asked to confirm now)',
      });
      const mails = await fresh(2);
      expect(smtp.messages.slice(-2).map((m) => m.from)).toEqual(['status@operator.test', 'status@operator.test']);
      expect(mails.map(toOf).sort()).toEqual(['colleague@example.test', 'victim@example.test']);
      for (const mail of mails) {
        expect(mail.from?.value).toEqual([{ address: 'status@operator.test', name: 'Operator status' }]);
        expect(mail.subject).toBe('[Warden] Confirm alerts from "Alpha Games"');
        expect(mail.text).toContain('Nothing is sent until you confirm');
        expect(mail.text).not.toContain('Your password expires today');
        expect(mail.replyTo).toBeUndefined();
        expect(mail.headerLines.find((line) => line.key === 'list-unsubscribe')?.line).toMatch(
          /\/notifications\/unsubscribe\?token=rcp_/,
        );
      }
      // The links are live: asked again, nobody is mailed again.
      expect((await test('phish')).delivery.lastError).toBe(
        'no confirmed recipient: 2 of 2 recipients skipped as unconfirmed (2 awaiting confirmation)',
      );
      await fresh(0);
      const recipients = await (await api('GET', '/api/v1/notification-channels/phish/recipients')).json();
      expect(recipients).toEqual({
        confirmation: 'required',
        recipients: [
          { address: 'victim@example.test', state: 'pending' },
          { address: 'colleague@example.test', state: 'pending' },
        ],
      });
      const victim = mails.find((m) => toOf(m) === 'victim@example.test') as ParsedMail;
      const confirm = linkIn(victim, '/notifications/confirm').replace('localhost', '127.0.0.1');
      expect((await fetch(confirm, { method: 'HEAD' })).status).toBe(200);
      const confirmed = await fetch(confirm);
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain('victim@example.test gets the alerts of &quot;Alpha Games&quot;');
      expect((await fetch(confirm)).status).toBe(404);
    });

    it("mails a confirmed recipient the test and the alerts, from WARDEN_SMTP_FROM, the channel's from as Reply-To", async () => {
      const sent = await test('phish');
      expect(sent.outcome).toBe('sent');
      expect(sent.delivery.lastAnswer).toContain('1 of 2 recipients skipped as unconfirmed (1 awaiting confirmation)');
      const [mail] = await fresh(1);
      expect(smtp.messages.at(-1)).toMatchObject({ from: 'status@operator.test', to: ['victim@example.test'] });
      expect(mail?.from?.value).toEqual([{ address: 'status@operator.test', name: 'Operator status' }]);
      expect(mail?.replyTo?.value).toEqual([{ address: 'security@operator.test', name: 'Operator Security' }]);
      expect(mail?.subject).toBe('[Warden · Alpha Games] [TEST] Test notification for "Your password expires today"');
      expect(mail?.text).toContain(
        'Warden sent this notification for the organization "Alpha Games", which wrote what it says.',
      );

      // An alert goes the same way, through the dispatcher.
      expect(
        (await api('POST', '/api/v1/pages/alpha/incidents', { title: 'Login queue', message: 'Looking into it' }))
          .status,
      ).toBe(201);
      // Both channels get it: the tenant's (to its confirmed recipient) and warden.yaml's.
      const alerts = await fresh(2);
      expect(alerts.map(toOf).sort()).toEqual(['ops@operator.test', 'victim@example.test']);
      const alert = alerts.find((m) => toOf(m) === 'victim@example.test');
      expect(alert?.subject).toBe('[Warden · Alpha Games] [INCIDENT] Incident: Login queue');
      expect(alert?.replyTo?.value).toEqual([{ address: 'security@operator.test', name: 'Operator Security' }]);
      await expect
        .poll(async () => (await deliveries('phish')).find((d) => d.kind === 'incident.created'))
        .toMatchObject({
          status: 'sent',
          lastAnswer: expect.stringContaining('1 of 2 recipients skipped as unconfirmed'),
        });
    });

    it('stops for good after a one-click unsubscribe', async () => {
      expect((await test('phish')).outcome).toBe('sent');
      const [mail] = await fresh(1);
      const header = mail?.headerLines.find((line) => line.key === 'list-unsubscribe')?.line ?? '';
      const unsubscribe = (/<(https?:\/\/[^>\s]+)>/.exec(header.replace(/\r?\n\s+/g, ''))?.[1] ?? '').replace(
        'localhost',
        '127.0.0.1',
      );
      const page = await fetch(unsubscribe);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('will get nothing more from &quot;Alpha Games&quot;');
      const oneClick = await fetch(unsubscribe, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      expect((await fetch(unsubscribe, { method: 'POST' })).status).toBe(404);
      const after = await test('phish');
      expect(after).toMatchObject({
        outcome: 'skipped',
        delivery: {
          lastError:
            'no confirmed recipient: 1 of 2 recipients skipped as unconfirmed (1 awaiting confirmation); 1 unsubscribed',
        },
      });
      await fresh(0);
      expect((await (await api('GET', '/api/v1/notification-channels/phish/recipients')).json()).recipients).toEqual([
        { address: 'victim@example.test', state: 'unsubscribed' },
        { address: 'colleague@example.test', state: 'pending' },
      ]);
    });

    it("sends warden.yaml's channel at once, and answers 429 with Retry-After past the tests a channel may send", async () => {
      expect(await (await api('GET', '/api/v1/notification-channels/operator-mail/recipients')).json()).toEqual({
        confirmation: 'not-required',
        recipients: [],
      });
      for (let i = 0; i < SYSTEM_MAIL_LIMITS.testsPerChannel; i++)
        expect((await test('operator-mail')).outcome).toBe('sent');
      const mails = await fresh(SYSTEM_MAIL_LIMITS.testsPerChannel);
      expect(mails.every((m) => m.subject?.startsWith('[Warden · Alpha Games] [TEST]'))).toBe(true);
      const refused = await api('POST', '/api/v1/notification-channels/operator-mail/test');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect(await refused.json()).toMatchObject({
        status: 429,
        detail: expect.stringContaining(
          `a channel may send ${SYSTEM_MAIL_LIMITS.testsPerChannel} tests an hour through the system SMTP server`,
        ),
      });
      await fresh(0);
    });

    it('refuses tenant channels the system server under WARDEN_SMTP_TENANTS=deny, naming config.host', async () => {
      const deny = await s.another({
        WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`,
        WARDEN_SMTP_FROM: 'status@operator.test',
        WARDEN_SMTP_TENANTS: 'deny',
      });
      const url = deny.url.replace('localhost', '127.0.0.1');
      const refused = await api('POST', '/api/v1/notification-channels', { ...SPOOFING_CHANNEL, key: 'phish-2' }, url);
      expect(refused.status).toBe(400);
      const body = await refused.json();
      expect(body.errors).toEqual([
        { path: 'body.config.host', message: expect.stringContaining('WARDEN_SMTP_TENANTS=deny') },
      ]);
      const patched = await api(
        'PATCH',
        '/api/v1/notification-channels/phish',
        { config: { to: 'someone@example.test' } },
        url,
      );
      expect(patched.status).toBe(400);
      const own = {
        ...SPOOFING_CHANNEL,
        key: 'own-server',
        config: { ...SPOOFING_CHANNEL.config, host: 'mail.example.com', port: 587 },
      };
      expect((await api('POST', '/api/v1/notification-channels', own, url)).status).toBe(201);
      // The tenant's channel made before: its test fails, saying why; nothing is mailed.
      const failed = await test('phish', url);
      expect(failed).toMatchObject({
        outcome: 'failed',
        delivery: { status: 'dead', lastError: expect.stringContaining('WARDEN_SMTP_TENANTS=deny') },
      });
      await fresh(0);
    });
  });
}
