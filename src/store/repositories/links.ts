// What an incident or a maintenance window names (components; a window also monitors): a link table, replaced whole.
import { sql } from 'kysely';
import type { Db } from '../tables.js';

/** Each link table's owner column and linked column. */
const COLUMNS = {
  incident_components: ['incident_id', 'component_id'],
  maintenance_components: ['maintenance_id', 'component_id'],
  maintenance_monitors: ['maintenance_id', 'monitor_id'],
} as const;

export async function replaceLinks(
  db: Db,
  table: keyof typeof COLUMNS,
  ownerId: string,
  linkedIds: readonly string[],
): Promise<void> {
  const [ownerColumn, linkedColumn] = COLUMNS[table];
  const owner = sql.ref(ownerColumn);
  await sql`delete from ${sql.table(table)} where ${owner} = ${ownerId}`.execute(db);
  if (linkedIds.length > 0)
    await sql`insert into ${sql.table(table)} (${owner}, ${sql.ref(linkedColumn)}) values ${sql.join(linkedIds.map((id) => sql`(${ownerId}, ${id})`))}`.execute(
      db,
    );
}
