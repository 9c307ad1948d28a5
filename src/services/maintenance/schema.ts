// Request bodies of the maintenance API, built from the same fields as warden.yaml's maintenance windows.
import { z } from 'zod';
import { maintenanceFields } from '../../config/file-schema.js';

export const ENDS_AFTER_START = 'must be after startsAt';

/** Only two valid times are compared: a wrong startsAt is reported once, on startsAt. */
export function endsAfterStart(startsAt: unknown, endsAt: unknown): boolean {
  return typeof startsAt !== 'number' || typeof endsAt !== 'number' || endsAt > startsAt;
}

export const maintenanceCreateSchema = z
  .object({
    key: maintenanceFields.key.optional(),
    title: maintenanceFields.title,
    description: maintenanceFields.description.optional(),
    startsAt: maintenanceFields.startsAt,
    endsAt: maintenanceFields.endsAt,
    components: maintenanceFields.components.default([]),
  })
  .strict()
  .refine((m) => endsAfterStart(m.startsAt, m.endsAt), { path: ['endsAt'], error: ENDS_AFTER_START });

/** The key stays; null clears the description. */
export const maintenancePatchSchema = z
  .object({
    title: maintenanceFields.title.optional(),
    description: maintenanceFields.description.nullable().optional(),
    startsAt: maintenanceFields.startsAt.optional(),
    endsAt: maintenanceFields.endsAt.optional(),
    components: maintenanceFields.components.optional(),
  })
  .strict();

export type MaintenanceCreateInput = z.output<typeof maintenanceCreateSchema>;
export type MaintenancePatchInput = z.output<typeof maintenancePatchSchema>;
