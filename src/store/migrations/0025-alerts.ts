// Alerts and escalation (issue 37): an alert is a monitor's open problem, from its down (or degraded) event to its
// recovery, with who acknowledged it and how far its escalation policy went; escalation policies are an
// organization's ordered steps of channels. Both live in the database, so a restart or a kill -9 forgets nothing.
import { sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';
import { createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'escalation_policies')
    .$call(organizationId)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON: [{ afterMin, channels: [channel keys] }], in order; the first step's afterMin is 0.
    .addColumn('steps', 'text', (c) => c.notNull())
    // JSON array of monitor keys it covers; null: every monitor of the organization.
    .addColumn('monitors', 'text')
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('escalation_policies_organization_key', ['organization_id', 'key'])
    .execute();
  await tableWithId(db, 'alerts')
    .$call(organizationId)
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('opened_at', time, (c) => c.notNull())
    // The state that opened it (down or degraded).
    .addColumn('opened_state', 'text', (c) => c.notNull())
    .addColumn('closed_at', time)
    .addColumn('acknowledged_at', time)
    // Who acknowledged: a member's name, an API key's name, or `link` (the signed link in an alert).
    .addColumn('acknowledged_by', 'text')
    .addColumn('ack_note', 'text')
    // The escalation policy it follows (set when it opens; deleting the policy stops its escalation).
    .addColumn('policy_id', 'text', (c) => c.references('escalation_policies.id').onDelete('set null'))
    // Steps delivered so far (0: none), and the keys of the channels they went to (JSON), which its resolve reaches.
    .addColumn('steps_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('step_channels', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  // One open alert per monitor, whichever process opens it.
  await db.schema
    .createIndex('alerts_open_monitor')
    .on('alerts')
    .column('monitor_id')
    .unique()
    .where(sql.ref('closed_at'), 'is', null)
    .execute();
  await createIndex(db, 'alerts_organization_opened', 'alerts', ['organization_id', 'opened_at']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('alerts').execute();
  await db.schema.dropTable('escalation_policies').execute();
}
