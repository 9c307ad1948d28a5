// Organizations: the tenants that own relays, monitors, pages and API keys.
import { newId } from '../domain/ids.js';
import type { Db } from './connect.js';

export interface Organization {
  id: string;
  key: string;
  name: string;
  createdAt: number;
}

export async function listOrganizations(db: Db): Promise<Organization[]> {
  const rows = await db.selectFrom('organizations').selectAll().orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, key: r.key, name: r.name, createdAt: r.created_at }));
}

export async function findOrganizationByKey(db: Db, key: string): Promise<Organization | undefined> {
  const r = await db.selectFrom('organizations').selectAll().where('key', '=', key).executeTakeFirst();
  return r && { id: r.id, key: r.key, name: r.name, createdAt: r.created_at };
}

/** Creates the organization or renames it; returns it and whether anything changed. */
export async function upsertOrganization(db: Db, key: string, name: string, now: number): Promise<{ organization: Organization; changed: boolean }> {
  const existing = await findOrganizationByKey(db, key);
  if (!existing) {
    const organization = { id: newId('org'), key, name, createdAt: now };
    await db.insertInto('organizations').values({ id: organization.id, key, name, created_at: now, updated_at: now }).execute();
    return { organization, changed: true };
  }
  if (existing.name === name) return { organization: existing, changed: false };
  await db.updateTable('organizations').set({ name, updated_at: now }).where('id', '=', existing.id).execute();
  return { organization: { ...existing, name }, changed: true };
}
