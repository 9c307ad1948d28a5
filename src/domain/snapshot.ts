// The snapshot of a status page: the one value every public form of the page (JSON, Markdown, HTML, RSS, badge…) renders.
import { z } from 'zod';
import { snapshotJoinSchema } from './join.js';
import { joinBadgeSchema } from './join-badges.js';
import { PAGE_LANGUAGES } from './languages.js';
import { MONITOR_STATES } from './monitor-type.js';
import { GAME_CHANGE_FIELDS, GAME_CHANGE_LIMITS } from './player-alerts.js';

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
const imageSource = z
  .string()
  .describe('An http(s) URL, or a path under the page (starting with "/assets/") for an image uploaded with it.');

export const snapshotBrandingSchema = z.object({
  accentColor: z.string().nullable().describe('#rrggbb for the light theme; null: Warden’s own'),
  accentColorDark: z.string().nullable().describe('The same accent lightened to WCAG AA on the dark background'),
  logo: imageSource.nullable(),
  favicon: imageSource.nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  footerText: z.string().nullable(),
  poweredBy: z.boolean().describe('Whether "Powered by Warden" shows'),
  stylesheet: z
    .string()
    .nullable()
    .describe('Path under the page of its custom stylesheet ("/custom.css?v=…"); null without one'),
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
    .object({
      email: z.boolean().describe('by email (the server has an SMTP server)'),
      webhook: z.boolean().describe('by a webhook that answers a signed challenge'),
      discord: z.boolean().describe("a Discord channel's webhook, checked with Discord (confirmed at once)"),
      slack: z.boolean().describe("a Slack incoming webhook, sent nothing until the page's admins approve it"),
    })
    .optional()
    .describe(
      "Present when visitors may subscribe to the page's incidents and maintenance: POST {page}/subscribe (docs/notifications.md).",
    ),
  uptimeHistory: z
    .literal(true)
    .optional()
    .describe('Present when the page publishes its uptime history: GET {page}/history (docs/reports.md).'),
});

export const uptimeWindowsSchema = z.object({ '24h': ratio, '7d': ratio, '30d': ratio, '90d': ratio });

export const dailyBarSchema = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  uptime: ratio,
  state: pageStateSchema.describe('the worst the component was that day; unknown without checks'),
  checks: z.number().int(),
  downMinutes: z
    .number()
    .int()
    .nullable()
    .describe(
      "Estimated minutes down: the share of failed checks × the minutes of the day observed (the day's minutes, so far for today, or fewer when its checks cover less: checks × the monitor's interval); null without checks",
    ),
  incidents: z
    .array(z.object({ id: z.string(), title: z.string() }))
    .describe('Incidents naming this component that were open at some time of the day, oldest first'),
});

/** The windows of a component's charts: the last 24 hours, 7 days and 30 days. */
export const CHART_RANGES = ['24h', '7d', '30d'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

const chartFrame = {
  start: epochMs.describe("start of the first point's period (UTC)"),
  stepMs: z
    .number()
    .int()
    .describe("each point's period: 3600000 (1 h) for 24h, 21600000 (6 h) for 7d, 86400000 (1 UTC day) for 30d"),
};
const chartValues = (what: string) =>
  z.array(z.number().int().nullable()).describe(`${what}, one per period, oldest first; null without data in it`);

export const latencySeriesSchema = z
  .object({
    ...chartFrame,
    p50: chartValues('median response time (ms)'),
    p95: chartValues('95th percentile response time (ms)'),
    summary: z
      .object({ p50: z.number().int().nullable(), p95: z.number().int().nullable() })
      .describe('over the whole window'),
  })
  .describe('Response times read off the buckets’ latency histograms (exact to a histogram bin)');

export const playersSeriesSchema = z
  .object({
    ...chartFrame,
    min: chartValues('fewest players online'),
    avg: chartValues('average players online'),
    max: chartValues('most players online'),
    summary: z
      .object({ min: z.number().int().nullable(), avg: z.number().int().nullable(), max: z.number().int().nullable() })
      .describe('over the whole window'),
  })
  .describe('Players online, as the checks saw them');

const chartWindows = <T extends z.ZodType>(series: T) => z.object({ '24h': series, '7d': series, '30d': series });

export const locationLatencySeriesSchema = z
  .object({
    ...chartFrame,
    avg: chartValues('average response time (ms) seen from this location'),
    summary: z.object({ avg: z.number().int().nullable() }).describe('over the whole window'),
  })
  .describe("One location's response times, from its hourly rollup");

export const locationChartSchema = z.object({
  name: z
    .string()
    .nullable()
    .describe("the relay's name; null: Warden itself (the edge), which the page names in its own language"),
  latency: chartWindows(locationLatencySeriesSchema),
});

export const componentChartsSchema = z
  .object({
    latency: chartWindows(latencySeriesSchema)
      .nullable()
      .describe('null: no response time measured in the last 30 days (or no monitor)'),
    locations: z
      .array(locationChartSchema)
      .optional()
      .describe(
        'Only for a monitor checked from several places (docs/monitors.md, "Several locations"): each place\'s average response time, the monitor\'s own first',
      ),
    players: chartWindows(playersSeriesSchema)
      .nullable()
      .describe('null: the monitor reported no players in the last 30 days (or no monitor)'),
  })
  .describe('The series of the charts: 24 points of 1 h, 28 of 6 h, 30 of 1 UTC day');

export const liveDataSchema = z.object({
  checkedAt: epochMs.nullable(),
  latencyMs: z.number().int().nullable(),
  players: z.number().int().nullable(),
  maxPlayers: z.number().int().nullable(),
  version: z.string().nullable(),
  motd: z.string().nullable(),
  message: z.string().nullable(),
  playerNames: z
    .array(z.string())
    .optional()
    .describe(
      'Who is online, as the latest check listed them (at most 100 names); present only on a page that shows player names and for a monitor that lists them (README.md, "Who is online").',
    ),
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
  charts: componentChartsSchema,
  join: snapshotJoinSchema.nullable().describe('How players join; null: not a game players join, or hidden'),
  badges: z
    .array(joinBadgeSchema)
    .describe('What the last successful check knew of joining: full, password, whitelist, queue; [] when nothing'),
  unreachable: z
    .object({ parent: z.string().describe('the name of the down monitor it depends on (the nearest one down)') })
    .optional()
    .describe(
      'Only on a page that shows it (`showUnreachable`): the component\'s monitor is not up while a monitor it depends on is down ("unreachable: <parent> is down")',
    ),
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
  repeats: z
    .string()
    .nullable()
    .describe(
      'How a recurring window repeats, in English words, e.g. "Every Monday at 02:00 (Europe/Berlin), 30 min" (several slots joined by "; "); null for a one-off window. startsAt and endsAt are then its occurrence in progress, or else its next one.',
    ),
});

export const snapshotGameChangeSchema = z.object({
  id: z.string().describe("stable per change: the game.changed event's id (the RSS item's guid)"),
  field: z.enum(GAME_CHANGE_FIELDS),
  from: z.string().describe('the value before; for a wipe, when the server was wiped before (ISO 8601)'),
  to: z.string().describe('the value now; for a wipe, when the server was wiped (ISO 8601)'),
  at: epochMs.describe('when the check that saw it ran'),
  components: z.array(componentRefSchema).describe("the page's components that show the monitor"),
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
      players: z
        .number()
        .int()
        .nullable()
        .describe('players online over components that report them; null when none does'),
      maxPlayers: z.number().int().nullable(),
    }),
    gameChanges: z
      .array(snapshotGameChangeSchema)
      .optional()
      .describe(
        `Present only on a page that announces game changes (announceGameChanges): its monitors' version, map and wipe changes of the last 24 hours, newest first, at most ${GAME_CHANGE_LIMITS.shownPerPage}.`,
      ),
    generatedAt: epochMs,
  })
  .describe('Everything a status page shows, as of generatedAt.');

export type SnapshotPage = z.infer<typeof snapshotPageSchema>;
export type SnapshotBranding = z.infer<typeof snapshotBrandingSchema>;
export type UptimeWindows = z.infer<typeof uptimeWindowsSchema>;
export type DailyBar = z.infer<typeof dailyBarSchema>;
export type LatencySeries = z.infer<typeof latencySeriesSchema>;
export type PlayersSeries = z.infer<typeof playersSeriesSchema>;
export type ComponentCharts = z.infer<typeof componentChartsSchema>;
export type LocationChart = z.infer<typeof locationChartSchema>;
export type LocationLatencySeries = z.infer<typeof locationLatencySeriesSchema>;
export type LiveData = z.infer<typeof liveDataSchema>;
export type SnapshotComponent = z.infer<typeof snapshotComponentSchema>;
export type SnapshotIncident = z.infer<typeof snapshotIncidentSchema>;
export type SnapshotMaintenance = z.infer<typeof snapshotMaintenanceSchema>;
export type SnapshotGameChange = z.infer<typeof snapshotGameChangeSchema>;
export type Snapshot = z.infer<typeof snapshotSchema>;
