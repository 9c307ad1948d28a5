// The monthly uptime report through a real SMTP server: mailed on the 1st's pass to the owners of an organization that
// asked for it, with last month's figures and CSV, once across processes, and not at all when it did not ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../test/api-app.js';
import { type FakeSmtpServer, startSmtpFake } from '../../test/fakes/smtp-server.js';
import { dialects } from '../../test/store-dialects.js';
import { lastMonth, sendMonthlyReports } from '../services/reports/monthly-report.js';
import { createMonthlyReports } from './monthly-reports.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the monthly report on ${dialect.name}`, () => {
    let h: ApiHarness;
    let smtp: FakeSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpFake();
      h = await openApiHarness(dialect, {
        smtp: {
          host: smtp.host,
          port: smtp.port,
          secure: 'none',
          tlsRejectUnauthorized: true,
          from: 'status@warden.test',
        },
      });
      await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }], { email: 'olive@alpha.test' });
      await signedInUser(h.context, [{ organizationId: h.a.id, role: 'viewer' }], { email: 'vic@alpha.test' });
      await signedInUser(h.context, [{ organizationId: h.b.id, role: 'owner' }], { email: 'bea@beta.test' });
    });
    afterAll(async () => {
      await h?.close();
      await smtp?.close();
    });

    it('names the month before the one a time is in', () => {
      expect(lastMonth(Date.UTC(2026, 0, 1, 0, 5))).toEqual({ month: '2025-12', from: '2025-12-01', to: '2025-12-31' });
      expect(lastMonth(Date.UTC(2026, 2, 10))).toEqual({ month: '2026-02', from: '2026-02-01', to: '2026-02-28' });
    });

    it("mails last month's report to the owners once, across processes, only where it was asked for", async () => {
      const res = await h.call('PATCH', '/api/v1/organization', { body: { monthlyReport: true } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ monthlyReport: true });
      const one = createMonthlyReports({ pass: () => sendMonthlyReports(h.context), logger: h.context.logger });
      const other = createMonthlyReports({ pass: () => sendMonthlyReports(h.context), logger: h.context.logger });
      const [first, second] = await Promise.all([one.sweep(), other.sweep()]);
      expect(first.mails + second.mails).toBe(1);
      expect(smtp.messages.map((m) => m.to)).toEqual([['olive@alpha.test']]);
      const mail = await smtp.messages[0]?.parse();
      expect(mail?.subject).toBe('Uptime report for Alpha, 2026-02');
      expect(mail?.text).toContain('Lobby (lobby): – available');
      const csv = mail?.attachments[0];
      expect(csv?.filename).toBe('uptime-2026-02.csv');
      expect(csv?.content.toString()).toMatch(/^subject_type,subject_id,/);
      // 28 days of February for each of the two monitors, under the header.
      expect(csv?.content.toString().trim().split('\r\n')).toHaveLength(1 + 2 * 28);
      expect((await one.sweep()).mails).toBe(0);
      expect(smtp.messages).toHaveLength(1);
    });

    it('mails a report again whose process stopped between claiming it and mailing it, once the claim is stale', async () => {
      await h.call('PATCH', '/api/v1/organization', { body: { monthlyReport: true } });
      const store = h.context.store.organizations;
      const now = h.context.clock.now();
      // Next month's report, claimed by a process that then died (kill -9): nothing was mailed, the claim stays.
      const month = '2026-03';
      const claim = await store.claimMonthlyReport(h.a.id, month, now, now - 30 * 60_000);
      expect(claim).toMatch(/^2026-03~/);
      // A live claim is not taken over: no other process mails it meanwhile.
      expect(await store.claimMonthlyReport(h.a.id, month, now + 60_000, now + 60_000 - 30 * 60_000)).toBeNull();
      // Half an hour on, the claim is stale: the next claim takes it, and completing it makes the month reported.
      const later = now + 31 * 60_000;
      const again = await store.claimMonthlyReport(h.a.id, month, later, later - 30 * 60_000);
      expect(again).toMatch(/^2026-03~/);
      await store.completeMonthlyReport(h.a.id, again as string, month);
      expect(await store.lastMonthlyReport(h.a.id)).toBe(month);
      expect(await store.claimMonthlyReport(h.a.id, month, later + 1, later + 1)).toBeNull();
    });

    it("mails the report after a crash left last month's claim behind", async () => {
      const sent = smtp.messages.length;
      const store = h.context.store.organizations;
      const now = h.context.clock.now();
      // The pass's month is February (the harness's clock): an older claim of it, left by a stopped process.
      await store.releaseMonthlyReport(h.a.id, (await store.lastMonthlyReport(h.a.id)) as string, '2026-01');
      expect(await store.claimMonthlyReport(h.a.id, '2026-02', now - 40 * 60_000, 0)).toMatch(/^2026-02~/);
      expect((await sendMonthlyReports(h.context)).mails).toBe(1);
      expect(smtp.messages.slice(sent).map((m) => m.to)).toEqual([['olive@alpha.test']]);
      expect(await store.lastMonthlyReport(h.a.id)).toBe('2026-02');
    });
  });
}
