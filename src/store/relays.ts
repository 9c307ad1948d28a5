// Relays: remote agents that run monitors inside private networks, known by a hashed token.
import type { Db } from './connect.js';
import type { ManagedBy } from './tables.js';

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

const toRelay = (r: {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  token_hash: string | null;
  token_prefix: string | null;
  last_seen_at: number | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}): Relay => ({
  id: r.id,
  organizationId: r.organization_id,
  key: r.key,
  name: r.name,
  tokenPrefix: r.token_prefix,
  hasToken: r.token_hash !== null,
  lastSeenAt: r.last_seen_at,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function listRelays(db: Db, organizationId: string): Promise<Relay[]> {
  const rows = await db.selectFrom('relays').selectAll().where('organization_id', '=', organizationId).orderBy('key').execute();
  return rows.map(toRelay);
}

export async function findRelayById(db: Db, id: string): Promise<Relay | undefined> {
  const row = await db.selectFrom('relays').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRelay(row);
}

export async function findRelayByKey(db: Db, organizationId: string, key: string): Promise<Relay | undefined> {
  const row = await db.selectFrom('relays').selectAll().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
  return row && toRelay(row);
}

export async function findRelayByTokenHash(db: Db, hash: string): Promise<(Relay & { tokenHash: string }) | undefined> {
  const row = await db.selectFrom('relays').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  return row && { ...toRelay(row), tokenHash: row.token_hash as string };
}

export async function insertRelay(
  db: Db,
  relay: { id: string; organizationId: string; key: string; name: string; managedBy: ManagedBy; now: number },
): Promise<void> {
  await db
    .insertInto('relays')
    .values({
      id: relay.id,
      organization_id: relay.organizationId,
      key: relay.key,
      name: relay.name,
      token_hash: null,
      token_prefix: null,
      last_seen_at: null,
      managed_by: relay.managedBy,
      created_at: relay.now,
      updated_at: relay.now,
    })
    .execute();
}

export async function updateRelay(db: Db, id: string, changes: { name?: string; managedBy?: ManagedBy }, now: number): Promise<void> {
  await db
    .updateTable('relays')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.managedBy !== undefined ? { managed_by: changes.managedBy } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Replaces the relay's token (the old one stops working at once). */
export async function setRelayToken(db: Db, id: string, token: { hash: string; prefix: string } | null, now: number): Promise<void> {
  await db
    .updateTable('relays')
    .set({ token_hash: token?.hash ?? null, token_prefix: token?.prefix ?? null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function relayTokenHash(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('relays').select('token_hash').where('id', '=', id).executeTakeFirst();
  return row?.token_hash ?? null;
}

export async function touchRelay(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('relays').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteRelay(db: Db, id: string): Promise<void> {
  await db.deleteFrom('relays').where('id', '=', id).execute();
}
