// Inputs of the page verbs, built from the same fields as warden.yaml's pages.
import { z } from 'zod';
import { reference } from '../../domain/fields.js';
import { pageFields } from '../../domain/page.js';

const pageShape = {
  slug: pageFields.slug,
  title: pageFields.title,
  description: pageFields.description.optional(),
  customDomain: pageFields.customDomain.optional(),
  password: pageFields.password
    .optional()
    .describe('Protects every form of the page (at least 8 characters); stored hashed, never returned.'),
  aiPolicy: pageFields.aiPolicy.default('allow'),
  notify: pageFields.notify.optional(),
  subscriptions: pageFields.subscriptions.default(false),
  showPlayerNames: pageFields.showPlayerNames.default(false),
  announceGameChanges: pageFields.announceGameChanges.default(false),
  publishUptimeHistory: pageFields.publishUptimeHistory.default(false),
  showUnreachable: pageFields.showUnreachable.default(false),
  draftIncidents: pageFields.draftIncidents.nullable().optional(),
  language: pageFields.language.nullable().optional(),
  timeZone: pageFields.timeZone.default('UTC'),
  branding: pageFields.branding.optional(),
  customCss: pageFields.customCss.nullable().optional(),
};

export const pageCreateSchema = z.object(pageShape).strict();
/** A page as warden.yaml declares it (its components, incidents and maintenance are put on their own). */
export const pageEntrySchema = pageCreateSchema;

/** The slug is the page's address and stays; null clears an optional field. */
export const pagePatchSchema = z
  .object({
    title: pageFields.title.optional(),
    description: pageFields.description.nullable().optional(),
    customDomain: pageFields.customDomain.nullable().optional(),
    password: pageFields.password
      .nullable()
      .optional()
      .describe('A new password (at least 8 characters), or null to remove protection.'),
    aiPolicy: pageFields.aiPolicy.optional(),
    notify: pageFields.notify
      .nullable()
      .optional()
      .describe('Keys of the notification channels this page names; null or [] names none.'),
    subscriptions: pageFields.subscriptions.optional(),
    showPlayerNames: pageFields.showPlayerNames.optional(),
    announceGameChanges: pageFields.announceGameChanges.optional(),
    publishUptimeHistory: pageFields.publishUptimeHistory.optional(),
    showUnreachable: pageFields.showUnreachable.optional(),
    draftIncidents: pageFields.draftIncidents
      .nullable()
      .optional()
      .describe(
        'Draft incidents of components down this long (docs/states.md, "Draft incidents"); null turns them off.',
      ),
    language: pageFields.language.nullable().optional().describe("The page's language, or null for each reader's own."),
    timeZone: pageFields.timeZone.optional(),
    branding: pageFields.branding
      .optional()
      .describe('Only the branding fields given change (null clears one); links, when given, replace the list.'),
    customCss: pageFields.customCss.nullable().optional().describe('null removes the stylesheet.'),
  })
  .strict();

export const pageSlugSchema = z.object({ slug: reference() });
export const pageUpdateSchema = pagePatchSchema.extend({ slug: reference() });
