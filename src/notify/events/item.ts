// An event as its producer knows it, before the outbox adds the organization and the pages: what every builder in
// notify/events/ returns and every producer hands to NotificationPublisher.publish.
import type { NotificationEvent } from '../channels/channel.js';

/**
 * One event to publish, as its producer knows it: the outbox adds the organization and the pages, picks the channels
 * whose rules want it, and writes one delivery per channel (and, for incidents and maintenance, per page subscriber).
 */
export interface OutboxItem {
  organizationId: string;
  event: Omit<NotificationEvent, 'organization' | 'pages'>;
  /**
   * What it is about, for the channels' rules: the monitor (if any), and the pages it concerns; null pageIds means the
   * pages that show the monitor (looked up), an empty list none.
   */
  subject: { monitorId: string | null; pageIds: readonly string[] | null };
  /** Only these channels (ids), when the event is for some in particular (a channel's reminder); otherwise every one whose rules want it. */
  only?: readonly string[] | undefined;
  /** Held back (a parent is down, docs/monitors.md "Dependencies"): recorded as skipped with this reason, sent to none. */
  heldBack?: string | undefined;
  /** With `only`: an escalation policy's step or resolve, sent to these channels whatever their scope. */
  direct?: boolean | undefined;
}
