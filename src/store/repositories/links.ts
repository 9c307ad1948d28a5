// The components an incident or a maintenance window names: a link table, replaced as a whole.
import { sql } from 'kysely';
import type { Db } from '../tables.js';

const OWNER_COLUMN = { incident_components: 'incident_id', maintenance_components: 'maintenance_id' } as const;

export async function replaceLinks(
  db: Db,
  table: keyof typeof OWNER_COLUMN,
  ownerId: string,
  componentIds: readonly string[],
): Promise<void> {
  const owner = sql.ref(OWNER_COLUMN[table]);
  await sql`delete from ${sql.table(table)} where ${owner} = ${ownerId}`.execute(db);
  if (componentIds.length > 0)
    await sql`insert into ${sql.table(table)} (${owner}, component_id) values ${sql.join(componentIds.map((id) => sql`(${ownerId}, ${id})`))}`.execute(
      db,
    );
}
