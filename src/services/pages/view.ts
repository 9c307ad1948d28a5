// The API's view of a page: everything but the password, which is only ever stored hashed.
import { z } from 'zod';
import { brandingSchema } from '../../domain/branding.js';
import { verificationRecordName } from '../../domain/custom-domain.js';
import { DRAFT_PUBLISH_MODES } from '../../domain/incident-draft.js';
import { PAGE_LANGUAGES } from '../../domain/languages.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import type { Page } from '../../domain/page.js';
import { pick } from '../view-fields.js';

export const pageViewSchema = z.object({
  id: z.string(),
  slug: z.string().describe('The page is served at /s/{slug}.'),
  title: z.string(),
  description: z.string().nullable(),
  customDomain: z.string().nullable(),
  customDomainVerification: z
    .object({
      state: z
        .enum(['verified', 'unverified'])
        .describe('Only a verified domain serves the page; an unverified one serves nothing.'),
      record: z.string().describe('The DNS name to publish a TXT record at: `_warden.<customDomain>`.'),
      token: z
        .string()
        .nullable()
        .describe(
          'The value the TXT record must hold; null for a domain from warden.yaml (the operator’s, verified as written).',
        ),
      verifiedAt: z.number().int().nullable().describe('When the record was found (epoch ms).'),
      checkedAt: z
        .number()
        .int()
        .nullable()
        .describe('When the record was last looked up (the verify call, the daily re-check).'),
    })
    .nullable()
    .describe(
      'null without a custom domain. A domain set through the API is verified by POST /api/v1/pages/{slug}/domain/verify.',
    ),
  passwordProtected: z
    .boolean()
    .describe('Whether a password protects every form of the page (the password is never returned).'),
  aiPolicy: z.enum(['allow', 'disallow']),
  notify: z.array(z.string()).nullable().describe('Keys of the notification channels this page names (null: none).'),
  subscriptions: z
    .boolean()
    .describe(
      "Whether visitors may subscribe to the page's incidents and maintenance (not while a password protects it).",
    ),
  showPlayerNames: z
    .boolean()
    .describe('Whether the page shows the names of the players online, where its monitors list them.'),
  announceGameChanges: z
    .boolean()
    .describe("Whether the page, its feed and its subscribers carry its monitors' game changes (version, map, wipe)."),
  publishUptimeHistory: z.boolean().describe('Whether the page publishes its uptime history (a month calendar).'),
  showUnreachable: z
    .boolean()
    .describe('Whether the page says "unreachable: <parent> is down" of a component behind a down parent monitor.'),
  draftIncidents: z
    .object({ afterMin: z.number().int(), publish: z.enum(DRAFT_PUBLISH_MODES) })
    .nullable()
    .describe('Incidents prepared for components down this long: drafted, or published at once (auto); null: off.'),
  language: z
    .enum(PAGE_LANGUAGES)
    .nullable()
    .describe("The page's language; null: each reader's own (Accept-Language)."),
  timeZone: z.string().describe('IANA time zone of the dates and times on the page.'),
  branding: brandingSchema.required(),
  customCss: z.string().nullable(),
  ...ownershipFields(),
});

export type PageView = z.infer<typeof pageViewSchema>;

export function pageView(page: Page): PageView {
  return {
    ...pick(page, ['id', 'slug', 'title', 'description', 'customDomain']),
    customDomainVerification:
      page.customDomain === null
        ? null
        : {
            state: page.customDomainVerifiedAt === null ? 'unverified' : 'verified',
            record: verificationRecordName(page.customDomain),
            token: page.customDomainToken,
            verifiedAt: page.customDomainVerifiedAt,
            checkedAt: page.customDomainCheckedAt,
          },
    passwordProtected: page.passwordHash !== null,
    ...pick(page, [
      'aiPolicy',
      'notify',
      'subscriptions',
      'showPlayerNames',
      'announceGameChanges',
      'publishUptimeHistory',
      'showUnreachable',
      'draftIncidents',
      'language',
      'timeZone',
      'branding',
      'customCss',
    ]),
    ...ownershipOf(page),
  };
}
