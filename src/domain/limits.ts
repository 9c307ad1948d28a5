// Every cap on what an organization, a page or an incident may hold: one table for warden.yaml, the API and the CLI (docs/api.md lists them).

export const LIMITS = {
  relaysPerOrganization: 1000,
  monitorsPerOrganization: 10_000,
  pagesPerOrganization: 1000,
  componentsPerPage: 500,
  /** Incidents kept per page, resolved ones included; delete old ones to open more. */
  incidentsPerPage: 10_000,
  maintenancePerPage: 1000,
  /** Entries of one incident's timeline. */
  updatesPerIncident: 200,
  /** Components one incident or maintenance window names. */
  componentsPerIncident: 500,
  /** Monitors one maintenance window covers directly (wherever they are shown). */
  monitorsPerMaintenance: 500,
  /** Characters of one incident update's message. */
  messageChars: 10_000,
  activeApiKeysPerOrganization: 100,
  notificationChannelsPerOrganization: 100,
} as const;

/** The settings of a monitor every type shares. */
export const MONITOR_LIMITS = {
  intervalSec: { min: 10, max: 86_400, default: 60 },
  timeoutMs: { min: 500, max: 120_000, default: 10_000 },
  retries: { min: 0, max: 10, default: 1 },
  degradedLatencyMs: { min: 1, max: 600_000 },
  /** Tags on one monitor (domain/monitor.ts MONITOR_TAG). */
  tags: 20,
  /** Other locations of one monitor, besides its own place (domain/vantage.ts). */
  locations: 8,
} as const;

/** The bounds and defaults of a notification channel's rules (docs/notifications.md, "Rules"). */
export const RULE_LIMITS = {
  /** Seconds a state must hold before it is told (0: at once). */
  holdSec: { min: 0, max: 86_400 },
  /** Minutes between reminders while a monitor stays down (at most a week). */
  remindEveryMin: { min: 1, max: 10_080 },
  /** State changes within flapWindowMin that make a monitor "flapping". */
  flapChanges: { min: 2, max: 100, default: 5 },
  flapWindowMin: { min: 1, max: 1_440, default: 10 },
  /** Days before a certificate's expiry that `tls.expiring` is told. */
  tlsDays: { min: 1, max: 90, default: 14 },
  /** Page slugs and component groups one channel may name. */
  pages: 1000,
  groups: 500,
} as const;
