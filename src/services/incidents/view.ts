// The API's view of an incident: its state, timeline and affected components.
import { z } from 'zod';
import { INCIDENT_IMPACTS, INCIDENT_STATUSES, type Incident } from '../../domain/incident.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import { affectedComponents } from '../components/view.js';
import { pick } from '../view-fields.js';

export const incidentViewSchema = z.object({
  id: z.string(),
  key: z.string().nullable().describe('Stable key, when one was given (warden.yaml always gives one).'),
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  impact: z.enum(INCIDENT_IMPACTS),
  startedAt: z.number().int(),
  resolvedAt: z.number().int().nullable(),
  componentIds: z.array(z.string()),
  components: z.array(z.string()).describe('Keys of the affected components.'),
  updates: z
    .array(z.object({ id: z.string(), status: z.enum(INCIDENT_STATUSES), message: z.string(), at: z.number().int() }))
    .describe('The timeline, oldest first.'),
  ...ownershipFields(),
});

export type IncidentView = z.infer<typeof incidentViewSchema>;

/** `componentKeys` maps the page's component ids to keys, in page order. */
export function incidentView(incident: Incident, componentKeys: ReadonlyMap<string, string>): IncidentView {
  return {
    ...pick(incident, ['id', 'key', 'title', 'status', 'impact', 'startedAt', 'resolvedAt']),
    ...affectedComponents(incident.componentIds, componentKeys),
    updates: incident.updates,
    ...ownershipOf(incident),
  };
}
