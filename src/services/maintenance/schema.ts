// Inputs of the maintenance verbs, built from the same fields as warden.yaml's maintenance windows.
import { z } from 'zod';
import { reference, stableKey } from '../../domain/fields.js';
import { ENDS_AFTER_START, endsAfterStart, maintenanceFields } from '../../domain/incident.js';

const windowShape = {
  title: maintenanceFields.title,
  description: maintenanceFields.description.optional(),
  startsAt: maintenanceFields.startsAt,
  endsAt: maintenanceFields.endsAt,
  components: maintenanceFields.components.default([]),
};
const onPage = { slug: reference() };
const one = { slug: reference(), id: reference() };

/** A window, with the fields given besides its own; a window ends after it starts. */
const windowWith = <E extends z.ZodRawShape>(extra: E) =>
  z
    .object({ ...extra, ...windowShape })
    .strict()
    .refine((m: { startsAt?: unknown; endsAt?: unknown }) => endsAfterStart(m.startsAt, m.endsAt), {
      path: ['endsAt'],
      error: ENDS_AFTER_START,
    });

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
    components: maintenanceFields.components.optional(),
  })
  .strict();

export const maintenanceListInput = z.object(onPage);
export const maintenanceRefInput = z.object(one);
export const maintenanceCreateInput = windowWith({ ...onPage, key: stableKey().optional() });
export const maintenanceEntryInput = windowWith({ ...onPage, key: stableKey() });
export const maintenancePatchInput = maintenancePatchSchema.extend(one);
