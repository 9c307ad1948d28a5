// Maintenance covering monitors directly (issue 35): a window names monitors of its page's organization, which are
// then under maintenance wherever they are shown. A link table like maintenance_components, deleted with either side.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('maintenance_monitors')
    .addColumn('maintenance_id', 'text', (c) => c.notNull().references('maintenance.id').onDelete('cascade'))
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('maintenance_monitors_pk', ['maintenance_id', 'monitor_id'])
    .execute();
  // A monitor's deletion cascades here: without an index it would scan the table.
  await db.schema.createIndex('maintenance_monitors_monitor').on('maintenance_monitors').column('monitor_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('maintenance_monitors').execute();
}
