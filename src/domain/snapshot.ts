// The snapshot of a status page: the one value every public form of the page (JSON, Markdown, HTML, RSS, badge…) renders.
import { z } from 'zod';
import { PAGE_LANGUAGES } from './languages.js';
import { MONITOR_STATES } from './monitor-type.js';

export const PAGE_STATES = ['operational', 'degraded', 'down', 'maintenance', 'unknown'] as const;
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;

/** The page vocabulary, for components and the page as a whole. */
export const pageStateSchema = z.enum(PAGE_STATES).describe('operational, degraded, down, maintenance or unknown');
export type PageState = z.infer<typeof pageStateSchema>;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

const epochMs = z.number().int().describe('epoch milliseconds');
const ratio = z.number().min(0).max(1).nullable().describe('share of passing checks, 0..1; null without checks');

/** Where an image of the page is: an external http(s) URL, or a path under the page's address ("/assets/logo?v=…"). */
const imageSource = z.string().describe('An http(s) URL, or a path under the page (starting with "/assets/") for an image uploaded with it.');

export const snapshotBrandingSchema = z.object({
  accentColor: z.string().nullable().describe('#rrggbb for the light theme; null: Warden’s own'),
  accentColorDark: z.string().nullable().describe('The same accent lightened to WCAG AA on the dark background'),
  logo: imageSource.nullable(),
  favicon: imageSource.nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  footerText: z.string().nullable(),
  poweredBy: z.boolean().describe('Whether "Powered by Warden" shows'),
  stylesheet: z.string().nullable().describe('Path under the page of its custom stylesheet ("/custom.css?v=…"); null without one'),
});

export const snapshotPageSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  url: z.string().describe('absolute URL of the HTML page'),
  customDomain: z.string().nullable(),
  language: z.enum(PAGE_LANGUAGES).nullable().describe("The page's language; null: each reader's own"),
  timeZone: z.string().describe('IANA time zone the page shows dates and times in'),
  branding: snapshotBrandingSchema,
  subscribe: z
    .object({ email: z.boolean().describe('by email (the server has an SMTP server)'), webhook: z.boolean() })
    .optional()
    .describe("Present when visitors may subscribe to the page's incidents and maintenance: POST {page}/subscribe (docs/notifications.md)."),
});

export const uptimeWindowsSchema = z.object({ '24h': ratio, '7d': ratio, '30d': ratio, '90d': ratio });

export const dailyBarSchema = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  uptime: ratio,
  state: pageStateSchema.describe('the worst the component was that day; unknown without checks'),
  checks: z.number().int(),
});

export const liveDataSchema = z.object({
  checkedAt: epochMs.nullable(),
  latencyMs: z.number().int().nullable(),
  players: z.number().int().nullable(),
  maxPlayers: z.number().int().nullable(),
  version: z.string().nullable(),
  motd: z.string().nullable(),
  message: z.string().nullable(),
});

export const snapshotComponentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  group: z.string().nullable(),
  state: pageStateSchema,
  monitorState: z.enum(MONITOR_STATES).nullable().describe("the monitor's own state; null without a monitor"),
  since: epochMs.nullable().describe('since when the monitor has been in its state'),
  uptime: uptimeWindowsSchema,
  days: z.array(dailyBarSchema).describe('90 UTC days, oldest first, ending today'),
  live: liveDataSchema.nullable(),
});

const componentRefSchema = z.object({ id: z.string(), name: z.string() });

export const snapshotIncidentSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  impact: z.enum(INCIDENT_IMPACTS),
  startedAt: epochMs,
  resolvedAt: epochMs.nullable(),
  components: z.array(componentRefSchema),
  updates: z
    .array(z.object({ id: z.string(), status: z.enum(INCIDENT_STATUSES), message: z.string(), at: epochMs }))
    .describe('oldest first'),
});

export const snapshotMaintenanceSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  startsAt: epochMs,
  endsAt: epochMs,
  status: z.enum(['scheduled', 'in_progress']),
  components: z.array(componentRefSchema),
});

export const snapshotSchema = z
  .object({
    page: snapshotPageSchema,
    overall: z.object({ state: pageStateSchema, label: z.string() }),
    components: z.array(snapshotComponentSchema),
    activeIncidents: z.array(snapshotIncidentSchema),
    recentIncidents: z.array(snapshotIncidentSchema).describe('resolved in the last 14 days, newest first'),
    maintenance: z.object({ active: z.array(snapshotMaintenanceSchema), upcoming: z.array(snapshotMaintenanceSchema) }),
    totals: z.object({
      players: z.number().int().nullable().describe('players online over components that report them; null when none does'),
      maxPlayers: z.number().int().nullable(),
    }),
    generatedAt: epochMs,
  })
  .describe('Everything a status page shows, as of generatedAt.');

export type SnapshotPage = z.infer<typeof snapshotPageSchema>;
export type SnapshotBranding = z.infer<typeof snapshotBrandingSchema>;
export type UptimeWindows = z.infer<typeof uptimeWindowsSchema>;
export type DailyBar = z.infer<typeof dailyBarSchema>;
export type LiveData = z.infer<typeof liveDataSchema>;
export type SnapshotComponent = z.infer<typeof snapshotComponentSchema>;
export type SnapshotIncident = z.infer<typeof snapshotIncidentSchema>;
export type SnapshotMaintenance = z.infer<typeof snapshotMaintenanceSchema>;
export type Snapshot = z.infer<typeof snapshotSchema>;
