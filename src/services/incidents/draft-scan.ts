// One scan of the draft incidents: each component of a drafting page down for its page's `afterMin` (and named by no
// open incident) gets one draft for its spell, or, on an `auto` page, its incident published at once; each waiting
// draft whose component came back (or went down anew) is discarded as recovered. The draft's unique key (component,
// spell start) makes a second process's or a restarted scan's insert a no-op, so nothing is drafted or published twice.
// A component whose monitor is under maintenance (a window in progress covering it, or the monitor's expected restart)
// is down on purpose: no draft is prepared for it while that lasts.

import { newId } from '../../domain/ids.js';
import { type DownComponent, type DraftScanOutcome, draftDue, draftText } from '../../domain/incident-draft.js';
import { underMaintenance, type WindowCover } from '../../domain/notification-rules.js';
import { logFailure } from '../../logger.js';
import { type ServiceContext, type ServiceParts, serviceContext, withTransaction } from '../context.js';
import { createIncident } from './write.js';

export function createDraftScan(parts: ServiceParts): () => Promise<DraftScanOutcome> {
  return async function scan(): Promise<DraftScanOutcome> {
    const outcome: DraftScanOutcome = { drafted: 0, published: 0, discarded: 0 };
    const now = parts.clock.now();
    const windows = new Map<string, Promise<WindowCover[]>>();
    const windowsOf = (organizationId: string) => {
      const known = windows.get(organizationId);
      if (known) return known;
      const read = parts.store.maintenance.listOfOrganization(organizationId, now);
      windows.set(organizationId, read);
      return read;
    };
    for (const down of await parts.store.incidentDrafts.listDownComponents()) {
      if (!draftDue(down, now)) continue;
      if (maintained(down, await windowsOf(down.organizationId), now)) continue;
      try {
        const made = await prepare(serviceContext(parts, { organizationId: down.organizationId }), down);
        if (made) outcome[made] += 1;
      } catch (error) {
        logFailure(parts.logger, error, `draft incident of component ${down.componentId} failed`);
      }
    }
    for (const { draft, monitor } of await parts.store.incidentDrafts.listWaiting()) {
      const stillDown = monitor?.enabled && monitor.state === 'down' && monitor.stateSince === draft.downSince;
      if (stillDown) continue;
      if (await parts.store.incidentDrafts.settle(draft.id, { status: 'discarded', reason: 'recovered' }, now))
        outcome.discarded += 1;
    }
    return outcome;
  };
}

/** Whether the component's monitor is under maintenance now: as its alerts and the page's own component see it. */
function maintained(down: DownComponent, windows: readonly WindowCover[], now: number): boolean {
  const showing = [{ pageId: down.pageId, componentId: down.componentId }];
  return underMaintenance(now, down.monitorId, showing, windows, down.expectedRestart);
}

/** The draft of one spell, or its incident published at once; null when it has one already or an open incident names it. */
async function prepare(ctx: ServiceContext, down: DownComponent): Promise<'drafted' | 'published' | null> {
  return withTransaction(ctx, async (tx) => {
    if (await tx.store.incidentDrafts.hasOpenIncident(down.pageId, down.componentId)) return null;
    const id = newId('idr');
    const text = draftText(down.componentName);
    const inserted = await tx.store.incidentDrafts.insert(
      {
        id,
        organizationId: down.organizationId,
        pageId: down.pageId,
        componentId: down.componentId,
        downSince: down.downSince,
        ...text,
        status: 'draft',
        discardedReason: null,
        incidentId: null,
      },
      tx.clock.now(),
    );
    if (!inserted) return null;
    if (down.setting.publish === 'draft') return 'drafted';
    const page = await tx.store.pages.findById(down.pageId);
    if (!page) return null;
    const incident = await createIncident(tx, {
      slug: page.slug,
      ...text,
      impact: 'major',
      components: [down.componentKey],
      startedAt: down.downSince,
    });
    await tx.store.incidentDrafts.settle(id, { status: 'published', incidentId: incident.id }, tx.clock.now());
    return 'published';
  });
}
