// The limits of the organization API besides the caps on what an organization holds (domain/limits.ts); docs/api.md lists the same numbers.

export const API_LIMITS = {
  /** Largest request body accepted (413 beyond). Room for an http monitor's 64 KiB body and a long incident message. */
  bodyBytes: 256 * 1024,
  /** Requests per key per window (429 beyond); WARDEN_API_RATE_LIMIT changes the count. */
  rateLimit: { requests: 600, windowMs: 60_000 },
  /** Keys tracked by one process's rate limiter before expired windows are swept. */
  rateLimitTrackedKeys: 10_000,
  /** A key's last use is written at most this often. */
  lastUsedResolutionMs: 60_000,
  /** The history window, in hours. */
  historyHours: { min: 1, max: 2160, default: 24 },
  /** Up to this many hours, history buckets are hourly; beyond, daily. */
  hourlyBucketsUpToHours: 7 * 24,
  /** Raw checks per history page. */
  historyChecks: { default: 100, max: 1000 },
  /**
   * Probe runs through "check now" and "test a monitor" per organization (429 beyond): enough for people at a form,
   * too few to scan a network through the edge runner.
   */
  probeRuns: { requests: 10, windowMs: 5_000 },
  /** Panel discoveries and applies per organization (429 beyond): each reads up to ten pages of a panel. */
  panelReads: { requests: 10, windowMs: 60_000 },
  /** Incidents per list response, newest first. */
  incidentList: { default: 50, max: 200 },
} as const;
