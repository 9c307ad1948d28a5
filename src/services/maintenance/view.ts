// The API's view of a maintenance window, the components it covers and the monitors it covers directly.
import { z } from 'zod';
import type { Maintenance } from '../../domain/incident.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import { currentOrNextOccurrence, recurrenceSchema } from '../../domain/recurrence.js';
import { describeRecurrence } from '../../domain/recurrence-text.js';
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
  repeats: z
    .string()
    .nullable()
    .describe(
      'How the window repeats, in words, e.g. "Every Monday at 02:00 (Europe/Berlin), 30 min" (what its page shows); null for a one-off window.',
    ),
  next: z
    .object({ startsAt: z.number().int(), endsAt: z.number().int() })
    .nullable()
    .describe('The occurrence in progress, or else the next one; null when none is ahead.'),
  componentIds: z.array(z.string()),
  components: z.array(z.string()).describe('Keys of the covered components.'),
  monitorIds: z.array(z.string()),
  monitors: z
    .array(z.string())
    .describe(
      'Keys of the monitors covered directly, wherever they are shown. Neither components nor monitors: the whole page.',
    ),
  announce: z
    .boolean()
    .describe('Whether its start and end are announced to channels and subscribers; false: a quiet window.'),
  ...ownershipFields(),
});

export type MaintenanceView = z.infer<typeof maintenanceViewSchema>;

/** Ids to keys: the page's components (in page order) and the organization's monitors (in the order views list them). */
export interface MaintenanceKeys {
  components: ReadonlyMap<string, string>;
  monitors: ReadonlyMap<string, string>;
}

export function maintenanceView(window: Maintenance, keys: MaintenanceKeys, now: number): MaintenanceView {
  const monitorIds = new Set(window.monitorIds);
  const monitors = [...keys.monitors].filter(([id]) => monitorIds.has(id));
  return {
    ...pick(window, ['id', 'key', 'title', 'description', 'startsAt', 'endsAt', 'recurrence']),
    repeats: window.recurrence === null ? null : describeRecurrence(window.recurrence, window.startsAt),
    next: currentOrNextOccurrence(window, now),
    ...affectedComponents(window.componentIds, keys.components),
    monitorIds: monitors.map(([id]) => id),
    monitors: monitors.map(([, key]) => key),
    announce: window.announce,
    ...ownershipOf(window),
  };
}
