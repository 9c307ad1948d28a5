// What a page holds, under /api/v1/pages/{slug}/…: components (and their order), incidents (and /api/v1/incidents/{id}/updates),
// maintenance; and the organization's incidents and maintenance across its pages (/api/v1/incidents, /api/v1/maintenance).
import { z } from '@hono/zod-openapi';
import { pageId } from '../../../services/audit/labels.js';
import { componentOrderSchema, orderComponents } from '../../../services/components/order.js';
import { getComponent, listComponents } from '../../../services/components/read.js';
import { componentCreateSchema, componentPatchSchema } from '../../../services/components/schema.js';
import { componentViewSchema } from '../../../services/components/view.js';
import { createComponent, deleteComponent, updateComponent } from '../../../services/components/write.js';
import { getIncident, listIncidents } from '../../../services/incidents/read.js';
import {
  incidentCreateSchema,
  incidentListQuerySchema,
  incidentPatchSchema,
  incidentUpdateCreateSchema,
} from '../../../services/incidents/schema.js';
import { incidentViewSchema } from '../../../services/incidents/view.js';
import {
  addIncidentUpdate,
  createIncident,
  deleteIncident,
  updateIncident,
} from '../../../services/incidents/write.js';
import { getMaintenance, listMaintenance } from '../../../services/maintenance/read.js';
import { maintenanceCreateSchema, maintenancePatchSchema } from '../../../services/maintenance/schema.js';
import { maintenanceViewSchema } from '../../../services/maintenance/view.js';
import { createMaintenance, deleteMaintenance, updateMaintenance } from '../../../services/maintenance/write.js';
import {
  listOrganizationIncidents,
  listOrganizationMaintenance,
  organizationIncidentQuerySchema,
  organizationIncidentSchema,
  organizationMaintenanceQuerySchema,
  organizationMaintenanceSchema,
} from '../../../services/pages/organization-timeline.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, listOperation, slugParam } from './operation.js';
import { pageChildRoutes } from './page-children.js';

const managed = (what: string) => `${what} managed by warden.yaml answer 409.`;

/** How reading, changing and deleting one keyed thing of a page read: "Read a component", "The changed window.", … */
const keyedWords = (noun: string, short: string, plural: string) => ({
  get: { summary: `Read a ${noun}`, ok: `The ${short}.` },
  update: {
    summary: `Change a ${noun}`,
    description: `Changes the fields given; the key stays. ${managed(plural)}`,
    ok: `The changed ${short}.`,
  },
  delete: { summary: `Delete a ${noun}`, description: managed(plural), ok: 'Deleted.' },
});

export function pageContentRoutes(app: App, guards: ApiGuards): void {
  componentRoutes(app, guards);
  incidentRoutes(app, guards);
  maintenanceRoutes(app, guards);
}

/** A page's components, and their order. */
function componentRoutes(app: App, guards: ApiGuards): void {
  const Component = componentViewSchema.openapi('Component');
  pageChildRoutes(app, guards, {
    tag: 'components',
    collection: 'components',
    id: { what: 'component', example: 'cmp_7n2p4r6t8v1w3x5y' },
    view: Component,
    create: componentCreateSchema.openapi('ComponentCreate'),
    patch: componentPatchSchema.openapi('ComponentPatch'),
    notFound: 'No such page in your organization, or no such component on it.',
    audit: { type: 'component', label: (component) => component.key ?? component.name },
    words: {
      list: { summary: "List a page's components", ok: 'The components, in page order.' },
      create: {
        summary: 'Add a component',
        description:
          'Also allowed on pages managed by warden.yaml: the file leaves components created through the API alone.',
        ok: 'Created.',
      },
      ...keyedWords('component', 'component', 'Components'),
    },
    verbs: {
      list: listComponents,
      create: createComponent,
      get: getComponent,
      update: updateComponent,
      delete: deleteComponent,
    },
  });

  apiOperation(app, guards, {
    tag: 'components',
    path: '/api/v1/pages/{slug}/components/order',
    method: 'post',
    summary: "Order a page's components",
    description:
      'Lists every component of the page once, in the order the page shows them (groups show in the order of their first component), ' +
      'optionally moving each to another group: one write for a drag and drop. Components warden.yaml manages keep their place and group ' +
      '(the others are numbered around them); an order that would move one answers 409.',
    scope: 'write',
    params: z.object({ slug: slugParam }),
    body: componentOrderSchema.openapi('ComponentOrder'),
    notFound: 'No page with this slug or id in your organization.',
    ok: {
      status: 200,
      schema: z.object({ components: z.array(Component) }),
      description: 'The components, in their new order.',
    },
    run: orderComponents,
    respond: (components) => ({ components }),
    audit: {
      action: 'page.order-components',
      object: () => ({ id: null, label: null }),
      before: pageId,
      detail: (input) => ({ components: input.components.length }),
    },
  });
}

/** A page's incidents, the organization's, and their updates. */
function incidentRoutes(app: App, guards: ApiGuards): void {
  const Incident = incidentViewSchema.openapi('Incident');
  const incidentId = { what: 'incident', example: 'inc_5d7f9h2j4k6m8n1p' };
  pageChildRoutes(app, guards, {
    tag: 'incidents',
    collection: 'incidents',
    id: incidentId,
    view: Incident,
    create: incidentCreateSchema.openapi('IncidentCreate'),
    patch: incidentPatchSchema.openapi('IncidentPatch'),
    listQuery: incidentListQuerySchema,
    notFound: 'No such page in your organization, or no such incident on it.',
    audit: { type: 'incident', label: (incident) => incident.title },
    words: {
      list: { summary: "List a page's incidents", ok: 'The incidents, newest first.' },
      create: {
        summary: 'Open an incident',
        description: 'The message is the first entry of the timeline. Also allowed on pages managed by warden.yaml.',
        ok: 'Created.',
      },
      get: { summary: 'Read an incident', ok: 'The incident with its timeline.' },
      update: {
        summary: 'Change an incident',
        description: `Title, impact, start and affected components. The status moves by posting updates. ${managed('Incidents')}`,
        ok: 'The changed incident.',
      },
      delete: { summary: 'Delete an incident', description: managed('Incidents'), ok: 'Deleted.' },
    },
    verbs: {
      list: listIncidents,
      create: createIncident,
      get: getIncident,
      update: updateIncident,
      delete: deleteIncident,
    },
  });
  listOperation(app, guards, {
    tag: 'incidents',
    path: '/api/v1/incidents',
    summary: "List the organization's incidents",
    description:
      'The incidents of every page of the organization, newest first, each naming its page: open ones, resolved ones, or both.',
    query: organizationIncidentQuerySchema,
    key: 'incidents',
    item: organizationIncidentSchema.openapi('OrganizationIncident'),
    ok: 'The incidents, newest first.',
    run: listOrganizationIncidents,
  });
  apiOperation(app, guards, {
    tag: 'incidents',
    path: '/api/v1/incidents/{id}/updates',
    method: 'post',
    summary: 'Post an incident update',
    description:
      'Adds an entry to the timeline and sets the incident status (investigating → identified → monitoring → resolved); resolved closes the incident, another status reopens it. Impact and affected components may change with it.',
    scope: 'write',
    params: z.object({ id: idParam(incidentId.what, incidentId.example) }),
    body: incidentUpdateCreateSchema.openapi('IncidentUpdateCreate'),
    notFound: 'No incident with this id in your organization.',
    ok: { status: 201, schema: Incident, description: 'The incident with the new update.' },
    run: addIncidentUpdate,
    audit: {
      action: 'incident.post-update',
      object: (_input, incident) => ({ id: incident.id, label: incident.title }),
    },
  });
}

/** The organization's maintenance windows, and a page's. */
function maintenanceRoutes(app: App, guards: ApiGuards): void {
  listOperation(app, guards, {
    tag: 'maintenance',
    path: '/api/v1/maintenance',
    summary: "List the organization's maintenance windows",
    description: 'The windows of every page of the organization, soonest first, each naming its page.',
    query: organizationMaintenanceQuerySchema,
    key: 'maintenance',
    item: organizationMaintenanceSchema.openapi('OrganizationMaintenance'),
    ok: 'The windows, soonest first.',
    run: listOrganizationMaintenance,
  });
  pageChildRoutes(app, guards, {
    tag: 'maintenance',
    collection: 'maintenance',
    id: { what: 'maintenance window', example: 'mnt_2b4d6f8h1j3k5m7n' },
    view: maintenanceViewSchema.openapi('Maintenance'),
    create: maintenanceCreateSchema.openapi('MaintenanceCreate'),
    patch: maintenancePatchSchema.openapi('MaintenancePatch'),
    notFound: 'No such page in your organization, or no such window on it.',
    audit: { type: 'maintenance', label: (window) => window.title },
    words: {
      list: { summary: "List a page's maintenance windows", ok: 'The windows, soonest first.' },
      create: {
        summary: 'Schedule maintenance',
        description: 'Also allowed on pages managed by warden.yaml.',
        ok: 'Created.',
      },
      ...keyedWords('maintenance window', 'window', 'Windows'),
    },
    verbs: {
      list: listMaintenance,
      create: createMaintenance,
      get: getMaintenance,
      update: updateMaintenance,
      delete: deleteMaintenance,
    },
  });
}
