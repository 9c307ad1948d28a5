// Request bodies of the page API, built from the same fields as warden.yaml's pages.
import { z } from 'zod';
import { pageFields } from '../../config/file-schema.js';

export const pageCreateSchema = z
  .object({
    slug: pageFields.slug,
    title: pageFields.title,
    description: pageFields.description.optional(),
    customDomain: pageFields.customDomain.optional(),
    password: pageFields.password.optional().describe('Protects every form of the page; stored hashed, never returned.'),
    aiPolicy: pageFields.aiPolicy.default('allow'),
  })
  .strict();

/** The slug is the page's address and stays; null clears an optional field. */
export const pagePatchSchema = z
  .object({
    title: pageFields.title.optional(),
    description: pageFields.description.nullable().optional(),
    customDomain: pageFields.customDomain.nullable().optional(),
    password: pageFields.password.nullable().optional().describe('A new password, or null to remove protection.'),
    aiPolicy: pageFields.aiPolicy.optional(),
  })
  .strict();

export type PageCreateInput = z.output<typeof pageCreateSchema>;
export type PagePatchInput = z.output<typeof pagePatchSchema>;
