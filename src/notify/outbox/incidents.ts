// The notices of an incident's writes, published on the write's transaction (the verbs in services/incidents/ call
// this with their context). A change that happened more than an hour ago (a warden.yaml that first declares an old
// incident, or an old entry added to its timeline) is recorded without telling anyone.
import type { Clock } from '../../domain/clock.js';
import type { Incident } from '../../domain/incident.js';
import type { Page } from '../../domain/page.js';
import type { Store } from '../../store/index.js';
import { incidentItem, incidentNotice } from '../events/incidents.js';
import type { NotificationPublisher } from './outbox.js';

/** Changes older than this are not told: they are history, not news. */
export const INCIDENT_NOTICE_MAX_AGE_MS = 3_600_000;

/** Publishes what moving an incident from `before` (null: it is new) to `after` calls for, if anything, on `ctx.store`. */
export async function publishIncidentNotice(
  ctx: { store: Store; clock: Clock; notify?: NotificationPublisher | undefined },
  page: Page,
  before: Incident | null,
  after: Incident,
): Promise<number> {
  if (!ctx.notify) return 0;
  const now = ctx.clock.now();
  const notice = incidentNotice(before, after, now);
  if (!notice || notice.at < now - INCIDENT_NOTICE_MAX_AGE_MS) return 0;
  return ctx.notify.publish(ctx.store, [incidentItem(page, after, notice)], now);
}
