// The API's view of a page: everything but the password, which is only ever stored hashed.
import { z } from 'zod';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import type { Page } from '../../domain/page.js';

export const pageViewSchema = z.object({
  id: z.string(),
  slug: z.string().describe('The page is served at /s/{slug}.'),
  title: z.string(),
  description: z.string().nullable(),
  customDomain: z.string().nullable(),
  passwordProtected: z.boolean().describe('Whether a password protects every form of the page (the password is never returned).'),
  aiPolicy: z.enum(['allow', 'disallow']),
  ...ownershipFields(),
});

export type PageView = z.infer<typeof pageViewSchema>;

export function pageView(page: Page): PageView {
  return {
    id: page.id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    customDomain: page.customDomain,
    passwordProtected: page.passwordHash !== null,
    aiPolicy: page.aiPolicy,
    ...ownershipOf(page),
  };
}
