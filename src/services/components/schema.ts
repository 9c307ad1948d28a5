// Inputs of the component verbs, built from the same fields as warden.yaml's components.
import { z } from 'zod';
import { reference } from '../../domain/fields.js';
import { componentFields } from '../../domain/page.js';

export const componentCreateSchema = z
  .object({
    key: componentFields.key.optional(),
    name: componentFields.name,
    description: componentFields.description.optional(),
    group: componentFields.group.optional(),
    order: componentFields.order.optional(),
    monitor: componentFields.monitor.optional(),
    join: componentFields.join.optional(),
  })
  .strict();

/** The key stays (incidents refer to it); null clears an optional field. */
export const componentPatchSchema = z
  .object({
    name: componentFields.name.optional(),
    description: componentFields.description.nullable().optional(),
    group: componentFields.group.nullable().optional(),
    order: componentFields.order.optional(),
    monitor: componentFields.monitor.nullable().optional(),
    join: componentFields.join.optional(),
  })
  .strict();

const onPage = { slug: reference() };
const one = { slug: reference(), id: reference() };

export const componentListInput = z.object(onPage);
export const componentRefInput = z.object(one);
export const componentCreateInput = componentCreateSchema.extend(onPage);
/** warden.yaml's component: the file gives its place on the page. */
export const componentEntryInput = componentCreateSchema.required({ order: true }).extend(onPage);
export const componentUpdateInput = componentPatchSchema.extend(one);
