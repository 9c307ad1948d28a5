// Draft incidents (issue 37): a page's setting (`draft_incidents`, JSON { afterMin, publish }, null: off) and the
// drafts prepared when a component has been down that long. One row per component and spell (the unique key on
// component and the time its monitor went down), so several processes, or a scan after a restart, prepare one draft;
// the row stays once published or discarded, so the same spell is never drafted again.
import { sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';
import { createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pages').addColumn('draft_incidents', 'text').execute();
  await tableWithId(db, 'incident_drafts')
    .$call(organizationId)
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('component_id', 'text', (c) => c.notNull().references('components.id').onDelete('cascade'))
    // When the component's monitor went down: the spell this draft is about.
    .addColumn('down_since', time, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published', 'discarded')`))
    // Why a draft was discarded: the component recovered, or an operator discarded it.
    .addColumn('discarded_reason', 'text', (c) => c.check(sql`discarded_reason in ('recovered', 'operator')`))
    .addColumn('incident_id', 'text', (c) => c.references('incidents.id').onDelete('set null'))
    .$call(timestamps)
    .addUniqueConstraint('incident_drafts_spell', ['component_id', 'down_since'])
    .execute();
  await createIndex(db, 'incident_drafts_page_status', 'incident_drafts', ['page_id', 'status']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('incident_drafts').execute();
  await db.schema.alterTable('pages').dropColumn('draft_incidents').execute();
}
