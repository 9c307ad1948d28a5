// Every limit of the organization API in one place; docs/api.md lists the same numbers.
import { CONFIG_LIMITS, INCIDENT_LIMITS } from '../config/file-schema.js';

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
  /** Incidents per list response, newest first. */
  incidentList: { default: 50, max: 200 },
  /** Objects an organization or page may hold (the same caps as warden.yaml). */
  monitorsPerOrganization: CONFIG_LIMITS.monitors,
  relaysPerOrganization: CONFIG_LIMITS.relays,
  pagesPerOrganization: CONFIG_LIMITS.pages,
  componentsPerPage: CONFIG_LIMITS.componentsPerPage,
  maintenancePerPage: 1000,
  updatesPerIncident: INCIDENT_LIMITS.updates,
  activeApiKeysPerOrganization: 100,
} as const;
