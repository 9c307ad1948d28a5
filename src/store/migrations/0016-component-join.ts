// A component's join button (issue 36): null derives it from the monitor ("auto"), 'hidden' hides it, or the JSON of
// its own { address?, url? } (domain/join.ts).
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('components').addColumn('join_button', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('components').dropColumn('join_button').execute();
}
