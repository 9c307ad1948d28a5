// The monthly uptime report: last month's report of each organization that asked for it (`monthlyReport`), mailed to
// its owners through the system SMTP server, once per month across processes: the organization's last reported month
// is claimed by a conditional update, and given back when no owner could be mailed. Run hourly by runner/monthly-reports.ts.
import { DAY_MS } from '../../domain/check.js';
import type { Organization } from '../../domain/organization.js';
import { logFailure } from '../../logger.js';
import { buildMonthlyReportMail } from '../../notify/mail/report-mail.js';
import { sendMail } from '../../notify/mail/smtp-send.js';
import type { ServiceContext } from '../context.js';
import { uptimeReport } from './uptime.js';
import { uptimeReportCsv } from './uptime-csv.js';
import { REPORT_MAX_SUBJECTS } from './uptime-schema.js';

const MAIL_TIMEOUT_MS = 30_000;

export interface MonthlyReportsSent {
  /** Organizations whose report this pass mailed (to at least one owner). */
  organizations: number;
  mails: number;
}

/** The month before the one `now` is in (UTC), YYYY-MM, with its first and last dates. */
export function lastMonth(now: number): { month: string; from: string; to: string } {
  const d = new Date(now);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  const last = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - DAY_MS;
  const date = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { month: date(first).slice(0, 7), from: date(first), to: date(last) };
}

/**
 * A claim this old was left by a process that stopped between claiming and finishing (a crash): the report is mailed
 * again (its owners may get it twice, rather than not at all). Far above a pass's longest run (a mail per owner, 30 s
 * each at most).
 */
const STALE_CLAIM_MS = 30 * 60_000;

/** Mails every report due now; what a pass sent. */
export async function sendMonthlyReports(
  deps: Omit<ServiceContext, 'organizationId' | 'actor'>,
): Promise<MonthlyReportsSent> {
  const sent = { organizations: 0, mails: 0 };
  if (!deps.smtp) return sent;
  const period = lastMonth(deps.clock.now());
  for (const organization of await deps.store.organizations.listMonthlyReports()) {
    const previous = await deps.store.organizations.lastMonthlyReport(organization.id);
    // Reported already (a claim in progress is left to the claim: it may be stale).
    if (previous !== null && !previous.includes('~') && previous >= period.month) continue;
    const now = deps.clock.now();
    const claim = await deps.store.organizations.claimMonthlyReport(
      organization.id,
      period.month,
      now,
      now - STALE_CLAIM_MS,
    );
    if (claim === null) continue;
    let mails = 0;
    try {
      mails = await mailOwners(deps, organization, period);
    } catch (error) {
      logFailure(deps.logger, error, 'monthly report failed');
    }
    const before = previous?.includes('~') ? null : previous;
    if (mails === 0) await deps.store.organizations.releaseMonthlyReport(organization.id, claim, before);
    else {
      await deps.store.organizations.completeMonthlyReport(organization.id, claim, period.month);
      sent.organizations++;
    }
    sent.mails += mails;
  }
  return sent;
}

/** Mails the month's report to each owner with an address; returns how many took it. */
async function mailOwners(
  deps: Omit<ServiceContext, 'organizationId' | 'actor'>,
  organization: Organization,
  period: { month: string; from: string; to: string },
): Promise<number> {
  const smtp = deps.smtp;
  if (!smtp) return 0;
  const owners = (await deps.store.memberships.listByOrganization(organization.id)).filter((m) => m.role === 'owner');
  const users = await deps.store.users.listByIds(owners.map((o) => o.userId));
  if (users.length === 0) return 0;
  // The first monitors by key, as many as one report holds.
  const monitors = (await deps.store.monitors.list(organization.id))
    .map((m) => m.key)
    .sort()
    .slice(0, REPORT_MAX_SUBJECTS);
  const ctx: ServiceContext = { ...deps, organizationId: organization.id };
  const report = await uptimeReport(ctx, { from: period.from, to: period.to, monitors: monitors.join(',') });
  const rows = report.subjects.map((s) => ({ name: s.name, key: s.key, ...s.summary }));
  const link = `${(deps.baseUrl ?? '').replace(/\/+$/, '')}/api/v1/reports/uptime?from=${period.from}&to=${period.to}`;
  let mails = 0;
  for (const user of users) {
    const message = buildMonthlyReportMail({
      to: user.email,
      from: smtp.from,
      now: deps.clock.now(),
      organization,
      month: period.month,
      rows,
      csv: uptimeReportCsv(report),
      link,
    });
    const outcome = await sendMail(smtp, message, AbortSignal.timeout(MAIL_TIMEOUT_MS));
    if (outcome.kind === 'sent') mails++;
    else
      deps.logger.warn(
        { organization: organization.key, status: outcome.status, error: outcome.error },
        'a monthly report was not sent',
      );
  }
  return mails;
}
