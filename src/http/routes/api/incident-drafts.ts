// A page's draft incidents (/api/v1/pages/{slug}/incident-drafts): listed, published with one call, discarded.
import { z } from '@hono/zod-openapi';
import {
  discardIncidentDraft,
  draftListQuerySchema,
  draftPublishSchema,
  incidentDraftViewSchema,
  listIncidentDrafts,
  publishIncidentDraft,
} from '../../../services/incidents/drafts.js';
import { incidentViewSchema } from '../../../services/incidents/view.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, slugParam } from './operation.js';

const PATH = '/api/v1/pages/{slug}/incident-drafts';
const NOT_FOUND = 'No such page in your organization, or no such draft on it.';
const WAITING = ' A draft already published or discarded answers 409.';

export function incidentDraftRoutes(app: App, guards: ApiGuards): void {
  const IncidentDraft = incidentDraftViewSchema.openapi('IncidentDraft');
  const one = z.object({ slug: slugParam, id: idParam('incident draft', 'idr_5d7f9h2j4k6m8n1p') });
  apiOperation(app, guards, {
    tag: 'incidents',
    path: PATH,
    method: 'get',
    summary: "List a page's draft incidents",
    description:
      'Incidents prepared for components down longer than the page\'s `draftIncidents.afterMin` (docs/states.md, "Draft incidents"). Drafts are never public: no page form, feed or notification shows them.',
    scope: 'read',
    params: z.object({ slug: slugParam }),
    query: draftListQuerySchema,
    notFound: NOT_FOUND,
    ok: { status: 200, schema: z.object({ drafts: z.array(IncidentDraft) }), description: 'The drafts, newest first.' },
    run: listIncidentDrafts,
    respond: (drafts) => ({ drafts }),
  });
  apiOperation(app, guards, {
    tag: 'incidents',
    path: `${PATH}/{id}/publish`,
    method: 'post',
    summary: 'Publish a draft incident',
    description: `Opens the incident (title and first update as given, else the draft's), affecting the component, started when it went down; it is told to subscribers like any incident.${WAITING}`,
    scope: 'write',
    params: one,
    body: draftPublishSchema.openapi('IncidentDraftPublish'),
    notFound: NOT_FOUND,
    ok: { status: 201, schema: incidentViewSchema.openapi('Incident'), description: 'The published incident.' },
    run: publishIncidentDraft,
    audit: {
      action: 'incident-draft.publish',
      object: (_input, incident) => ({ id: incident.id, label: incident.title }),
    },
  });
  apiOperation(app, guards, {
    tag: 'incidents',
    path: `${PATH}/{id}`,
    method: 'delete',
    summary: 'Discard a draft incident',
    description: `Nothing is published for this spell; the component's next spell gets a new draft.${WAITING}`,
    scope: 'write',
    params: one,
    notFound: NOT_FOUND,
    ok: { status: 204, description: 'Discarded.' },
    run: discardIncidentDraft,
    audit: { action: 'incident-draft.discard', object: (_input, draft) => ({ id: draft.id, label: draft.title }) },
  });
}
