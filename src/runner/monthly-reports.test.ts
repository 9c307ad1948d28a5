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
  });
}
