// Inputs of the board verbs, built from the same fields as warden.yaml's boards.
import { z } from 'zod';
import { boardFields } from '../../domain/board.js';
import { reference } from '../../domain/fields.js';

const onPage = { slug: reference() };
const one = { slug: reference(), id: reference() };

export const boardCreateSchema = z.object(boardFields).strict();
/** A board as warden.yaml declares it on a page. */
export const boardEntrySchema = boardCreateSchema;

export const boardPatchSchema = z
  .object({
    webhookUrl: boardFields.webhookUrl.optional(),
    components: boardFields.components.unwrap().nullable().optional().describe('null: every component of the page.'),
    enabled: z.boolean().optional(),
  })
  .strict();

export const boardListInput = z.object(onPage);
export const boardRefInput = z.object(one);
export const boardCreateInput = boardCreateSchema.extend(onPage);
export const boardEntryInput = boardEntrySchema.extend(onPage);
export const boardPatchInput = boardPatchSchema.extend(one);
