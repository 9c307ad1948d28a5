// Organizations (the tenants) and what they own besides monitors and pages: API keys and relays.
import type { ManagedBy } from './ownership.js';

export interface Organization {
  id: string;
  key: string;
  name: string;
  createdAt: number;
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
}

/** A remote agent that runs monitors inside a private network, known by a hashed token. */
export interface Relay {
  id: string;
  organizationId: string;
  key: string;
  name: string;
  tokenPrefix: string | null;
  hasToken: boolean;
  lastSeenAt: number | null;
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}
