// Alerts of a tenant's email channel on the system SMTP server through the dispatcher, over the app and a real SMTP
// exchange on both databases, with a settable clock and small limits: skipped (the recipient asked to confirm) until
// the recipient confirms, then sent; past the channel's limit held, its delivery log saying why, and sent once the
// window is over. An organization's invitation mails count against the same limit.
import type { ParsedMail } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../api-app.js';
import { type FakeSmtpServer, startSmtpFake } from '../fakes/smtp-server.js';
import { dialects } from '../store-dialects.js';

const WINDOW_MS = 3_600_000;
const LIMITS = { perChannel: 3, perOrganization: 50, windowMs: WINDOW_MS };

interface Delivery {
  kind: string;
  status: string;
  lastError: string | null;
  lastAnswer: string | null;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the dispatcher and the system SMTP server on ${dialect.name}`, () => {
    let h: ApiHarness | undefined;
    let smtp: FakeSmtpServer | undefined;
    afterEach(async () => {
      // A commit wakes the dispatcher, which then polls on its own: stopped before its store closes.
      await h?.dispatcher.stop();
      await h?.close();
      await smtp?.close();
    });

    async function open(): Promise<{ h: ApiHarness; smtp: FakeSmtpServer }> {
      smtp = await startSmtpFake();
      h = await openApiHarness(dialect, {
        smtp: {
          host: smtp.host,
          port: smtp.port,
          secure: 'none',
          tlsRejectUnauthorized: true,
          from: { address: 'status@operator.test', name: 'Operator status' },
        },
        systemMailLimits: LIMITS,
      });
      return { h, smtp };
    }
    const incident = async (h: ApiHarness, title: string) =>
      expect(
        (await h.call('POST', '/api/v1/pages/alpha/incidents', { body: { title, message: 'Looking' } })).status,
      ).toBe(201);
    const log = async (h: ApiHarness) =>
      (
        (await (await h.call('GET', '/api/v1/notification-channels/ops/deliveries')).json()) as {
          deliveries: Delivery[];
        }
      ).deliveries.filter((d) => d.kind === 'incident.created');
    const parsed = (smtp: FakeSmtpServer, from = 0): Promise<ParsedMail[]> =>
      Promise.all(smtp.messages.slice(from).map((m) => m.parse()));
    /**
     * Sends what is due until every incident delivery is settled (sent, skipped, or held with its reason): a commit
     * also wakes the dispatcher on its own, so a tick may find the work taken already.
     */
    const settled = (h: ApiHarness, count: number) =>
      expect
        .poll(async () => {
          await h.dispatcher.tick();
          const deliveries = await log(h);
          return (
            deliveries.length === count &&
            deliveries.every(
              (d) => d.status === 'sent' || d.status === 'skipped' || (d.status === 'pending' && d.lastError !== null),
            )
          );
        })
        .toBe(true);

    it('asks first, sends once confirmed, and holds past the channel limit until the window ends', async () => {
      const { h, smtp } = await open();
      const channel = {
        key: 'ops',
        name: 'Ops',
        type: 'email',
        config: { to: 'ops@alpha.test', from: 'alerts@alpha.test' },
        rules: { events: ['incident.created'] },
      };
      expect((await h.call('POST', '/api/v1/notification-channels', { body: channel })).status).toBe(201);

      await incident(h, 'First');
      await settled(h, 1);
      expect(await log(h)).toMatchObject([
        {
          status: 'skipped',
          lastError: 'no confirmed recipient: 1 of 1 recipient skipped as unconfirmed (1 asked to confirm now)',
        },
      ]);
      const [ask] = await parsed(smtp);
      expect(ask?.subject).toBe('[Warden] Confirm alerts from "Alpha"');
      const confirm = /http:\/\/warden\.test(\/notifications\/confirm\?token=\S+)/.exec(ask?.text ?? '')?.[1] ?? '';
      expect((await h.app.request(confirm)).status).toBe(200);

      for (const title of ['Second', 'Third', 'Fourth']) await incident(h, title);
      await settled(h, 4);
      // The confirmation mail counted: two alerts fit in the channel's three messages an hour; the third waits.
      const alerts = await parsed(smtp, 1);
      expect(alerts.map((m) => m.subject)).toEqual([
        '[Warden · Alpha] [INCIDENT] Incident: Second',
        '[Warden · Alpha] [INCIDENT] Incident: Third',
      ]);
      expect(smtp.messages.slice(1).every((m) => m.from === 'status@operator.test')).toBe(true);
      expect(alerts[0]?.replyTo?.text).toBe('alerts@alpha.test');
      const held = (await log(h)).find((d) => d.status === 'pending');
      expect(held?.lastError).toMatch(
        /^held: a channel may send 3 messages an hour through the system SMTP server \(next in 3600 s\)$/,
      );

      h.clock.advance(WINDOW_MS);
      await expect
        .poll(async () => {
          await h.dispatcher.tick();
          return (await log(h)).map((d) => d.status).sort();
        })
        .toEqual(['sent', 'sent', 'sent', 'skipped']);
      expect((await parsed(smtp, 3)).map((m) => m.subject)).toEqual(['[Warden · Alpha] [INCIDENT] Incident: Fourth']);
    });

    it("mails an organization's invitations within the same limit, and past it shows the link without mailing it", async () => {
      const { h, smtp } = await open();
      const invite = async (email: string) => {
        const res = await h.call('POST', '/api/v1/invitations', { body: { email, role: 'viewer' } });
        expect(res.status).toBe(201);
        return (await res.json()) as { link: string; mailed: boolean };
      };
      const answers = [];
      for (const email of ['a@elsewhere.test', 'b@elsewhere.test', 'c@elsewhere.test', 'd@elsewhere.test'])
        answers.push(await invite(email));
      // Three messages an hour: the fourth invitation is made, its link shown to the inviter, and no mail sent.
      expect(answers.map((a) => a.mailed)).toEqual([true, true, true, false]);
      expect(answers[3]?.link).toMatch(/\/app\/invite\?token=wdi_/);
      expect(smtp.messages.map((m) => m.to)).toEqual([
        ['a@elsewhere.test'],
        ['b@elsewhere.test'],
        ['c@elsewhere.test'],
      ]);
      h.clock.advance(WINDOW_MS);
      expect((await invite('e@elsewhere.test')).mailed).toBe(true);
    });
  });
}
