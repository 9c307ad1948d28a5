// Inputs of the maintenance verbs, built from the same fields as warden.yaml's maintenance windows.
import { z } from 'zod';
import { reference, stableKey } from '../../domain/fields.js';
import { ENDS_AFTER_START, endsAfterStart, maintenanceFields } from '../../domain/incident.js';
import { recurrenceSchema } from '../../domain/recurrence.js';

const windowShape = {
  title: maintenanceFields.title,
  description: maintenanceFields.description.optional(),
  startsAt: maintenanceFields.startsAt
    .optional()
    .describe('When the window starts; for a recurring window, when its series starts (default: now).'),
  endsAt: maintenanceFields.endsAt
    .optional()
    .describe('When the window ends; for a recurring window, when its series ends (default: open-ended).'),
  recurrence: recurrenceSchema.optional(),
  components: maintenanceFields.components.default([]),
  monitors: maintenanceFields.monitors.default([]),
  announce: maintenanceFields.announce.default(true),
};

export const TIMES_REQUIRED = 'required unless the window has a recurrence';
type Times = { startsAt?: unknown; endsAt?: unknown; recurrence?: unknown };
const missingTime = (m: Times, field: 'startsAt' | 'endsAt') => m[field] === undefined && m.recurrence === undefined;
const onPage = { slug: reference() };
const one = { slug: reference(), id: reference() };

/** A window, with the fields given besides its own; a window ends after it starts. */
const windowWith = <E extends z.ZodRawShape>(extra: E) =>
  z
    .object({ ...extra, ...windowShape })
    .strict()
    .refine((m: Times) => !missingTime(m, 'startsAt'), { path: ['startsAt'], error: TIMES_REQUIRED })
    .refine((m: Times) => !missingTime(m, 'endsAt'), { path: ['endsAt'], error: TIMES_REQUIRED })
    .refine((m: Times) => endsAfterStart(m.startsAt, m.endsAt), { path: ['endsAt'], error: ENDS_AFTER_START });

export const maintenanceCreateSchema = windowWith({ key: stableKey().optional() });
/** A window as warden.yaml declares it: always with a key. */
export const maintenanceEntrySchema = windowWith({ key: stableKey() });

/** The key stays; null clears the description. The window is checked once merged with what is stored. */
export const maintenancePatchSchema = z
  .object({
    title: maintenanceFields.title.optional(),
    description: maintenanceFields.description.nullable().optional(),
    startsAt: maintenanceFields.startsAt.optional(),
    endsAt: maintenanceFields.endsAt.optional(),
    recurrence: recurrenceSchema.nullable().optional().describe('null makes the window one-off again.'),
    components: maintenanceFields.components.optional(),
    monitors: maintenanceFields.monitors.optional(),
    announce: maintenanceFields.announce.optional(),
  })
  .strict();

export const maintenanceListInput = z.object(onPage);
export const maintenanceRefInput = z.object(one);
export const maintenanceCreateInput = windowWith({ ...onPage, key: stableKey().optional() });
export const maintenanceEntryInput = windowWith({ ...onPage, key: stableKey() });
export const maintenancePatchInput = maintenancePatchSchema.extend(one);
