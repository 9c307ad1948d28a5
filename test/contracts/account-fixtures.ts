// Accounts the store contract suites build on: users, sessions and invitations with their defaults.
import type { Invitation, Session } from '../../src/domain/account.js';
import type { Store } from '../../src/store/index.js';
import { NOW, ORG } from './store-fixtures.js';

export const MINUTE = 60_000;

export async function addUser(
  store: Store,
  id: string,
  overrides: { email?: string; name?: string; passwordHash?: string | null } = {},
  now = NOW,
): Promise<string> {
  await store.users.insert(
    {
      id,
      email: overrides.email ?? `${id}@example.com`,
      name: overrides.name ?? `User ${id}`,
      passwordHash: overrides.passwordHash ?? null,
    },
    now,
  );
  return id;
}

export function session(id: string, userId: string, overrides: Partial<Session> = {}): Session & { hash: string } {
  return {
    id,
    userId,
    hash: `hash_${id}`,
    createdAt: NOW,
    lastSeenAt: NOW,
    expiresAt: NOW + 60 * MINUTE,
    userAgent: 'Firefox',
    address: '10.0.0.1',
    provenAt: NOW,
    ...overrides,
  };
}

export function invitation(id: string, overrides: Partial<Invitation> = {}): Invitation & { hash: string } {
  return {
    id,
    organizationId: ORG.id,
    email: null,
    role: 'editor',
    createdBy: null,
    createdAt: NOW,
    expiresAt: NOW + 60 * MINUTE,
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    hash: `hash_${id}`,
    ...overrides,
  };
}
