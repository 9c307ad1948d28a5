// Maintenance events: a window starting or ending, for its page's channels and subscribers. Pure; the maintenance
// pass (notify/outbox/maintenance.ts) decides when a window's notice is due.
import type { Maintenance } from '../../domain/incident.js';
import { stableEventId } from '../../domain/notification.js';
import type { OutboxItem } from './item.js';

export type MaintenanceKind = 'maintenance.started' | 'maintenance.ended';

/** The notice of `window` (on a page of `organizationId`) starting or ending. */
export function maintenanceItem(organizationId: string, window: Maintenance, kind: MaintenanceKind): OutboxItem {
  const started = kind === 'maintenance.started';
  return {
    organizationId,
    subject: { monitorId: null, pageIds: [window.pageId] },
    event: {
      // Per window and time: a window moved to another time is another notice.
      id: stableEventId(window.id, started ? window.startsAt : window.endsAt, kind),
      kind,
      at: started ? window.startsAt : window.endsAt,
      severity: started ? 'info' : 'ok',
      title: `${started ? 'Maintenance started' : 'Maintenance ended'}: ${window.title}`,
      reason: window.description,
      maintenance: { id: window.id, title: window.title, startsAt: window.startsAt, endsAt: window.endsAt },
    },
  };
}
