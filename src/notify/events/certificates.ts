// Certificate events: `tls.expiring` (days left) and `tls.expired`, and what a check's result tells of its
// certificate. Pure; notify/outbox/certificates.ts judges which results are news and for which channels.
import type { Monitor, MonitorStateRow } from '../../domain/monitor.js';
import { stableEventId } from '../../domain/notification.js';
import { CERTIFICATE_EXPIRED_ERROR } from '../../net/certificates.js';
import type { OutboxItem } from './item.js';

const DAY_MS = 86_400_000;

/** What the certificate events read of a check's result (ingest's input has these fields). */
export interface CheckedResult {
  kind?: 'result';
  monitorId: string;
  ok: boolean;
  error?: string | null | undefined;
  data?: Record<string, unknown> | null | undefined;
  checkedAt?: number | undefined;
}

/** A certificate judged: its expiry (ISO 8601, null when unknown), whole days left (null: an expired one refused the check). */
export interface CertificateFacts {
  checkedAt: number;
  validTo: string | null;
  daysLeft: number | null;
  error: string | null;
}

/** The event a judged certificate calls for, to the channels `only`. */
export function certificateItem(
  monitor: Monitor,
  c: CertificateFacts & { organizationId: string },
  only: readonly string[],
): OutboxItem {
  const expired = c.daysLeft === null || c.daysLeft < 0;
  const kind = expired ? 'tls.expired' : 'tls.expiring';
  const host = hostOf(monitor.config) ?? monitor.name;
  const expiresAt = c.validTo === null ? c.checkedAt : Date.parse(c.validTo);
  const daysLeft = c.daysLeft ?? Math.floor((expiresAt - c.checkedAt) / DAY_MS);
  return {
    organizationId: c.organizationId,
    subject: { monitorId: monitor.id, pageIds: null },
    only,
    event: {
      id: stableEventId(monitor.id, c.validTo ?? 'unknown', kind),
      kind,
      at: c.checkedAt,
      severity: expired ? 'critical' : 'warning',
      title: expired
        ? `The certificate of ${host} has expired`
        : `The certificate of ${host} expires ${daysLeft === 0 ? 'today' : `in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`}`,
      reason: c.error,
      monitor: {
        id: monitor.id,
        key: monitor.key,
        name: monitor.name,
        type: monitor.type,
        state: monitor.state,
        previousState: monitor.state,
      },
      tls: { host, expiresAt, daysLeft },
    },
  };
}

/**
 * What a result tells of the certificate: its expiry and days left (`data.tlsValidTo`, `data.tlsDaysRemaining`), or that
 * an expired one refused the check (then the expiry last seen, from the monitor's previous result, when known).
 */
export function certificateFacts(
  input: CheckedResult,
  monitor: MonitorStateRow,
  lastJudged: string | undefined,
): { validTo: string | null; daysLeft: number | null } | null {
  const validTo = input.data?.tlsValidTo;
  const daysLeft = input.data?.tlsDaysRemaining;
  if (typeof validTo === 'string' && typeof daysLeft === 'number' && !Number.isNaN(Date.parse(validTo)))
    return { validTo, daysLeft };
  if (input.ok || input.error !== CERTIFICATE_EXPIRED_ERROR) return null;
  // Already judged expired: no need to read the previous result again.
  if (lastJudged?.endsWith('\u0000expired'))
    return { validTo: lastJudged.slice(0, -'\u0000expired'.length) || null, daysLeft: null };
  return { validTo: previousValidTo(monitor.lastResult), daysLeft: null };
}

function previousValidTo(lastResult: string | null): string | null {
  if (lastResult === null) return null;
  try {
    const validTo = (JSON.parse(lastResult) as { data?: { tlsValidTo?: unknown } | null }).data?.tlsValidTo;
    return typeof validTo === 'string' && !Number.isNaN(Date.parse(validTo)) ? validTo : null;
  } catch {
    return null;
  }
}

/** The host a monitor's `url` names (http), or its `host` (tls), if it has one. */
function hostOf(config: Record<string, unknown>): string | null {
  if (typeof config.host === 'string') return config.host;
  if (typeof config.url !== 'string') return null;
  try {
    return new URL(config.url).hostname;
  } catch {
    return null;
  }
}
