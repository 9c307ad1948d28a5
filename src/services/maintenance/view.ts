// The API's view of a maintenance window and the components it covers.
import { z } from 'zod';
import type { Maintenance } from '../../domain/incident.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import { currentOrNextOccurrence, recurrenceSchema } from '../../domain/recurrence.js';
import { affectedComponents } from '../components/view.js';
import { pick } from '../view-fields.js';

export const maintenanceViewSchema = z.object({
  id: z.string(),
  key: z.string().nullable().describe('Stable key, when one was given (warden.yaml always gives one).'),
  title: z.string(),
  description: z.string().nullable(),
  startsAt: z.number().int(),
  endsAt: z.number().int(),
  recurrence: recurrenceSchema.nullable().describe('The slots that repeat the window; null for a one-off window.'),
  next: z
    .object({ startsAt: z.number().int(), endsAt: z.number().int() })
    .nullable()
    .describe('The occurrence in progress, or else the next one; null when none is ahead.'),
  componentIds: z.array(z.string()),
  components: z.array(z.string()).describe('Keys of the covered components.'),
  ...ownershipFields(),
});

export type MaintenanceView = z.infer<typeof maintenanceViewSchema>;

/** `componentKeys` maps the page's component ids to keys, in page order. */
export function maintenanceView(
  window: Maintenance,
  componentKeys: ReadonlyMap<string, string>,
  now: number,
): MaintenanceView {
  return {
    ...pick(window, ['id', 'key', 'title', 'description', 'startsAt', 'endsAt', 'recurrence']),
    next: currentOrNextOccurrence(window, now),
    ...affectedComponents(window.componentIds, componentKeys),
    ...ownershipOf(window),
  };
}
