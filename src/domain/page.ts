// A status page and its components: the shapes the store keeps and the fields every writer shares.
import { z } from 'zod';
import { brandingSchema, customCssSchema, type PageBranding } from './branding.js';
import { reservedDomainProblem } from './custom-domain.js';
import { stableKey, text } from './fields.js';
import { type DraftIncidentSetting, draftIncidentSettingSchema } from './incident-draft.js';
import { type JoinSetting, joinSettingSchema } from './join.js';
import { type PageLanguage, pageLanguageSchema, timeZoneSchema } from './languages.js';
import { LIMITS } from './limits.js';
import type { Ownership } from './ownership.js';
import { PAGE_PASSWORD_MIN_CHARS } from './passwords.js';

export interface Page extends Ownership {
  id: string;
  organizationId: string;
  slug: string;
  title: string;
  description: string | null;
  customDomain: string | null;
  /** Set through the API: the value `_warden.<customDomain>` must hold (TXT) before the domain serves; null for warden.yaml's. */
  customDomainToken: string | null;
  /** When the domain was proven (or written by warden.yaml); null: the domain serves nothing. */
  customDomainVerifiedAt: number | null;
  /** When the TXT record was last looked up. */
  customDomainCheckedAt: number | null;
  passwordHash: string | null;
  aiPolicy: AiPolicy;
  /** Keys of the notification channels this page names: they get the events of what it shows (null: none named). */
  notify: string[] | null;
  /** Whether visitors may subscribe to the page's incidents and maintenance (email, webhook); never on a protected page. */
  subscriptions: boolean;
  /** Whether the page shows the names of the players online where its monitors list them; off by default (privacy). */
  showPlayerNames: boolean;
  /** Whether the page, its feed and its subscribers carry its monitors' game changes (version, map, wipe); off by default. */
  announceGameChanges: boolean;
  /** Whether the page publishes its uptime history (a month calendar of days and their incidents); off by default. */
  publishUptimeHistory: boolean;
  /** Whether the page says "unreachable: <parent> is down" of a component held behind a down parent; off by default. */
  showUnreachable: boolean;
  /** Draft incidents of components down this long (docs/states.md, "Draft incidents"); null: off, the default. */
  draftIncidents: DraftIncidentSetting | null;
  /** null: each reader's language (Accept-Language). */
  language: PageLanguage | null;
  /** IANA name; dates and times on the page are shown in it. */
  timeZone: string;
  branding: PageBranding;
  /** The page's own stylesheet; null without one. */
  customCss: string | null;
}

export const AI_POLICIES = ['allow', 'disallow'] as const;
export type AiPolicy = (typeof AI_POLICIES)[number];

export type PageSpec = Pick<Page, 'slug' | 'title' | 'description' | 'customDomain' | 'aiPolicy'> &
  Partial<
    Pick<
      Page,
      | 'subscriptions'
      | 'showPlayerNames'
      | 'announceGameChanges'
      | 'publishUptimeHistory'
      | 'showUnreachable'
      | 'draftIncidents'
      | 'notify'
      | 'language'
      | 'timeZone'
      | 'branding'
      | 'customCss'
    >
  >;

export interface Component extends Ownership {
  id: string;
  pageId: string;
  /** Stable key within the page (the config's `key`, else its name). */
  key: string;
  name: string;
  description: string | null;
  group: string | null;
  order: number;
  monitorId: string | null;
  /** How players join from the page: derived from the monitor, hidden, or the component's own (domain/join.ts). */
  join: JoinSetting;
}

export type ComponentSpec = Pick<Component, 'key' | 'name' | 'description' | 'group' | 'order' | 'monitorId' | 'join'>;

export function componentSpecChanged(c: Component, s: ComponentSpec): boolean {
  return (
    c.name !== s.name ||
    c.description !== s.description ||
    c.group !== s.group ||
    c.order !== s.order ||
    c.monitorId !== s.monitorId ||
    JSON.stringify(c.join) !== JSON.stringify(s.join)
  );
}

/** Page fields shared by warden.yaml and the API, without defaults (see monitorFields). */
export const pageFields = {
  slug: stableKey(),
  title: text(200),
  description: text(2000),
  customDomain: z
    .string()
    .trim()
    .toLowerCase()
    .overwrite((name) => name.replace(/\.$/, ''))
    .check((ctx) => {
      const problem = reservedDomainProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, continue: false });
    })
    .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/, {
      error: 'expected a host name such as status.example.com',
    }),
  password: z
    .string()
    .min(PAGE_PASSWORD_MIN_CHARS, { error: `must be at least ${PAGE_PASSWORD_MIN_CHARS} characters` })
    .max(256)
    .describe(`At least ${PAGE_PASSWORD_MIN_CHARS} characters.`),
  aiPolicy: z.enum(AI_POLICIES).describe('disallow keeps the page out of MCP and llms.txt.'),
  notify: z
    .array(stableKey())
    .max(LIMITS.notificationChannelsPerOrganization)
    .describe(
      'Keys of notification channels that get the events of everything this page shows, whatever their own scope (docs/notifications.md, "Scope").',
    ),
  language: pageLanguageSchema,
  timeZone: timeZoneSchema,
  branding: brandingSchema,
  customCss: customCssSchema,
  subscriptions: z
    .boolean()
    .describe(
      "Whether visitors may subscribe to the page's incidents and maintenance by email or webhook (docs/notifications.md); a password-protected page takes none.",
    ),
  showPlayerNames: z
    .boolean()
    .describe(
      'Whether the page shows who is online: the names of the players, where a monitor lists them (its `playerNames` option). Off by default; never in RSS, llms.txt or MCP (README.md, "Who is online").',
    ),
  announceGameChanges: z
    .boolean()
    .describe(
      'Whether the page announces its monitors\' game changes (version, map, wipe: the monitors\' `playerAlerts.changes`) of the last 24 hours, in every form and its RSS feed, and sends them to its subscribers. Off by default (docs/monitors.md, "Player alerts").',
    ),
  publishUptimeHistory: z
    .boolean()
    .describe(
      'Whether the page publishes its uptime history at `history` (a month calendar of days with their incidents, HTML and JSON; docs/reports.md). Off by default.',
    ),
  showUnreachable: z
    .boolean()
    .describe(
      'Whether the page says "unreachable: <parent> is down" beside a component whose monitor is held behind a down parent monitor (its `dependsOn`, or its relay\'s), in HTML, JSON and Markdown. Off by default: the parent\'s name shows on the page (docs/monitors.md, "Dependencies").',
    ),
  draftIncidents: draftIncidentSettingSchema.describe(
    'Prepare an incident when a component has been down this long: a draft for an operator to publish, or published at once (docs/states.md, "Draft incidents"). Off (null) by default.',
  ),
};

const ORDER_MESSAGE = 'expected an integer from 0 to 100000';

/** Component fields shared by warden.yaml and the API, without defaults. */
export const componentFields = {
  key: stableKey().describe('Stable key within the page; defaults to the name.'),
  name: text(200),
  description: text(2000),
  group: text(200),
  monitor: stableKey().describe('Key of the monitor whose state the component shows.'),
  order: z
    .number()
    .int({ error: ORDER_MESSAGE })
    .min(0, { error: ORDER_MESSAGE })
    .max(100_000, { error: ORDER_MESSAGE })
    .describe('Position on the page, lowest first; new components go last by default.'),
  join: joinSettingSchema,
};
