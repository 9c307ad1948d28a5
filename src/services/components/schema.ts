// Request bodies of the component API, built from the same fields as warden.yaml's components.
import { z } from 'zod';
import { componentFields } from '../../config/file-schema.js';

const order = z
  .number()
  .int({ error: 'expected an integer from 0 to 100000' })
  .min(0, { error: 'expected an integer from 0 to 100000' })
  .max(100_000, { error: 'expected an integer from 0 to 100000' })
  .describe('Position on the page, lowest first; new components go last by default.');

export const componentCreateSchema = z
  .object({
    key: componentFields.key.optional(),
    name: componentFields.name,
    description: componentFields.description.optional(),
    group: componentFields.group.optional(),
    order: order.optional(),
    monitor: componentFields.monitor.optional(),
  })
  .strict();

/** The key stays (incidents refer to it); null clears an optional field. */
export const componentPatchSchema = z
  .object({
    name: componentFields.name.optional(),
    description: componentFields.description.nullable().optional(),
    group: componentFields.group.nullable().optional(),
    order: order.optional(),
    monitor: componentFields.monitor.nullable().optional(),
  })
  .strict();

export type ComponentCreateInput = z.output<typeof componentCreateSchema>;
export type ComponentPatchInput = z.output<typeof componentPatchSchema>;
