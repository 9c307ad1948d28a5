// The writes of draft incidents as the audit log tests make them: publishing one draft and discarding another, both
// seeded on page alpha's lobby component (seedDrafts) since a draft only comes from a long outage.
import type { ApiHarness } from './api-app.js';
import type { AuditStepsEnv, Step } from './audit-steps.js';
import { keeper } from './audit-steps-organization.js';

const PUBLISHED = 'idr_audit_publish';
const DISCARDED = 'idr_audit_discard';

/** Two waiting drafts of two spells of alpha's lobby, one to publish and one to discard. */
export async function seedDrafts(h: ApiHarness): Promise<void> {
  const page = await h.store.pages.findBySlug('alpha');
  const [lobby] = await h.store.components.list(page?.id as string);
  for (const [i, id] of [PUBLISHED, DISCARDED].entries())
    await h.store.incidentDrafts.insert(
      {
        id,
        organizationId: h.a.id,
        pageId: page?.id as string,
        componentId: lobby?.id as string,
        downSince: h.clock.now() - (i + 1) * 3600_000,
        title: 'Lobby is down',
        message: 'Lobby is not responding.',
        status: 'draft',
        discardedReason: null,
        incidentId: null,
      },
      h.clock.now(),
    );
}

export function draftSteps({ ids }: AuditStepsEnv): Step[] {
  const { keep, id } = keeper(ids);
  return [
    {
      op: 'POST /api/v1/pages/{slug}/incident-drafts/{id}/publish',
      path: () => `/api/v1/pages/alpha/incident-drafts/${PUBLISHED}/publish`,
      body: () => ({ title: 'Lobby outage' }),
      by: 'key',
      action: 'incident-draft.publish',
      keep: keep('draftIncident'),
      objectId: id('draftIncident'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/incident-drafts/{id}',
      path: () => `/api/v1/pages/alpha/incident-drafts/${DISCARDED}`,
      by: 'user',
      action: 'incident-draft.discard',
      objectId: () => DISCARDED,
    },
  ];
}
