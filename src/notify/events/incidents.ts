// Incident events: created, updated (a new timeline entry or a status change) and resolved. Pure: which notice a
// change is, and the item it becomes; notify/outbox/incidents.ts publishes it on the write's transaction.
import type { Incident, IncidentImpact } from '../../domain/incident.js';
import { stableEventId } from '../../domain/notification.js';
import type { Page } from '../../domain/page.js';
import type { NotificationKind, NotificationSeverity } from '../channels/channel.js';
import type { OutboxItem } from './item.js';

export type IncidentKind = Extract<NotificationKind, `incident.${string}`>;

/**
 * Which notice a change is and when it happened: new → created (when its latest entry, start or resolution was); a
 * timeline entry that was not there before, or a new status → resolved (when it now is and was not) or updated.
 * Anything else (a title, the impact, the components) is not news.
 */
export function incidentNotice(
  before: Incident | null,
  after: Incident,
  now: number,
): { kind: IncidentKind; at: number } | null {
  const latest = after.updates.at(-1);
  if (!before)
    return { kind: 'incident.created', at: Math.max(after.startedAt, latest?.at ?? 0, after.resolvedAt ?? 0) };
  const newEntry =
    latest !== undefined &&
    !before.updates.some((u) => u.at === latest.at && u.status === latest.status && u.message === latest.message);
  if (!newEntry && before.status === after.status) return null;
  const kind = after.status === 'resolved' && before.status !== 'resolved' ? 'incident.resolved' : 'incident.updated';
  const at = newEntry && latest ? latest.at : after.status === 'resolved' ? (after.resolvedAt ?? now) : now;
  return { kind, at };
}

/** The item of `notice` about `after`, the incident as written, on `page`. */
export function incidentItem(page: Page, after: Incident, notice: { kind: IncidentKind; at: number }): OutboxItem {
  const latest = after.updates.at(-1);
  return {
    organizationId: page.organizationId,
    subject: { monitorId: null, pageIds: [page.id] },
    event: {
      id:
        notice.kind === 'incident.created'
          ? stableEventId(after.id, notice.kind)
          : stableEventId(after.id, notice.kind, notice.at, after.status),
      kind: notice.kind,
      at: notice.at,
      severity: after.status === 'resolved' ? 'ok' : SEVERITY[after.impact],
      title: `${TITLE[notice.kind]}${after.title}`,
      reason: latest?.message ?? null,
      incident: {
        id: after.id,
        title: after.title,
        status: after.status,
        impact: after.impact,
        message: latest?.message ?? null,
      },
    },
  };
}

const SEVERITY: Record<IncidentImpact, NotificationSeverity> = {
  critical: 'critical',
  major: 'critical',
  minor: 'warning',
  none: 'info',
};

const TITLE: Record<IncidentKind, string> = {
  'incident.created': 'Incident: ',
  'incident.updated': 'Incident update: ',
  'incident.resolved': 'Resolved: ',
};
