// Organizations (the tenants) and what they own besides monitors and pages: API keys and relays.
import type { ManagedBy, Ownership } from './ownership.js';
import type { ProbeTargetPolicy } from './security.js';

export interface Organization {
  id: string;
  key: string;
  name: string;
  /** Whether this organization's edge probes may reach private addresses; null follows WARDEN_PROBE_PRIVATE_TARGETS. */
  probePrivateTargets: ProbeTargetPolicy | null;
  /** config once warden.yaml declares it: then only the file renames it, and it cannot be deleted through the API. */
  managedBy: ManagedBy;
  createdAt: number;
  /** Whether its owners are mailed the monthly uptime report (docs/reports.md); off by default. */
  monthlyReport: boolean;
}

/** The built-in demo's organization (loaded into an empty database without a config file). */
export const DEMO_ORGANIZATION_KEY = 'demo';

/** The organization a warden.yaml names when it gives no key. */
export const DEFAULT_ORGANIZATION_KEY = 'default';

/**
 * Whether an organization key is the operator's: `default` (a warden.yaml without a key), `demo`, and the key of the
 * file the server applies (`fileKey`). Sign-ups and `POST /api/v1/organizations` never take one, so nobody can make
 * the organization the operator's file will name before the file does (config apply adopts none it did not create).
 */
export function isReservedOrganizationKey(key: string, fileKey?: string | undefined): boolean {
  return key === DEFAULT_ORGANIZATION_KEY || key === DEMO_ORGANIZATION_KEY || key === fileKey;
}

/**
 * The probe-target policy of each organization, by id: its own setting when it has one, else the global one, and for
 * `auto` allow while the database holds a single organization and deny once it holds more. The built-in demo is not
 * counted, so an operator who tried the demo before writing warden.yaml keeps watching their LAN.
 */
export function probeTargetPolicies(
  organizations: readonly Organization[],
  global: ProbeTargetPolicy | 'auto',
): Map<string, ProbeTargetPolicy> {
  const counted = organizations.filter((organization) => organization.key !== DEMO_ORGANIZATION_KEY).length;
  const fallback: ProbeTargetPolicy = global !== 'auto' ? global : counted <= 1 ? 'allow' : 'deny';
  return new Map(organizations.map((organization) => [organization.id, organization.probePrivateTargets ?? fallback]));
}

export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface ApiKey {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /**
   * The user whose authority made it: the signed-in admin, or for a key made with another key, that key's maker. Null
   * for the operator's CLI and keys made before Warden recorded it. Removing or demoting that user revokes it.
   */
  createdBy: string | null;
}

/** A remote agent that runs monitors inside a private network, known by a hashed token. */
export interface Relay extends Ownership {
  id: string;
  organizationId: string;
  key: string;
  name: string;
  tokenPrefix: string | null;
  hasToken: boolean;
  lastSeenAt: number | null;
  /** Set when the token was rotated through the API: the relay config withholds secrets set before then (null: none). */
  secretsWithheldBefore: number | null;
  /** Key of the monitor the relay's monitors depend on unless they name their own; null: none. */
  dependsOn: string | null;
}
