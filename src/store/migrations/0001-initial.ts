// The initial schema, written once for SQLite and PostgreSQL.
import { PostgresAdapter, sql } from 'kysely';
import { type AnyDb, createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await organizationTables(db);
  await checkTables(db, postgres);
  await pageTables(db);
}

/** Organizations, their API keys and relays, and monitors. */
async function organizationTables(db: AnyDb): Promise<void> {
  await tableWithId(db, 'organizations')
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  await tableWithId(db, 'api_keys')
    .$call(organizationId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('read', 'write')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_used_at', time)
    .addColumn('revoked_at', time)
    .execute();
  await createIndex(db, 'api_keys_organization', 'api_keys', ['organization_id']);

  await tableWithId(db, 'relays')
    .$call(organizationId)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('token_prefix', 'text')
    .addColumn('last_seen_at', time)
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('relays_organization_key', ['organization_id', 'key'])
    .execute();

  await tableWithId(db, 'monitors')
    .$call(organizationId)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('interval_sec', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('run_on', 'text', (c) => c.notNull().check(sql`run_on in ('edge', 'relay', 'push')`))
    .addColumn('relay_id', 'text', (c) => c.references('relays.id').onDelete('set null'))
    .addColumn('push_token_hash', 'text', (c) => c.unique())
    .addColumn('push_token_prefix', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('degraded_latency_ms', 'integer')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('state_since', time, (c) => c.notNull())
    .addColumn('failure_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_check_at', time)
    .addColumn('last_result', 'text')
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('monitors_organization_key', ['organization_id', 'key'])
    .execute();
  await createIndex(db, 'monitors_relay', 'monitors', ['relay_id']);
}

/** Checks and their hourly and daily buckets. */
async function checkTables(db: AnyDb, postgres: boolean): Promise<void> {
  await db.schema
    .createTable('checks')
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
    )
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('checked_at', time, (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'integer')
    .addColumn('message', 'text')
    .addColumn('error', 'text')
    .addColumn('data', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('result_id', 'text')
    .execute();
  await createIndex(db, 'checks_monitor_time', 'checks', ['monitor_id', 'checked_at']);
  // Only relay results carry an id; a partial index keeps the other 99 % of inserts from paying for it.
  await db.schema
    .createIndex('checks_monitor_result')
    .on('checks')
    .columns(['monitor_id', 'result_id'])
    .unique()
    .where(sql.ref('result_id'), 'is not', null)
    .execute();
  // Ingest looks relay result ids up across monitors (`result_id in (…)`), which the pair index above cannot serve.
  await db.schema
    .createIndex('checks_result')
    .on('checks')
    .column('result_id')
    .where(sql.ref('result_id'), 'is not', null)
    .execute();

  for (const table of ['check_buckets_hourly', 'check_buckets_daily']) {
    await db.schema
      .createTable(table)
      .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('bucket_start', time, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('up_count', 'integer', (c) => c.notNull())
      .addColumn('degraded_count', 'integer', (c) => c.notNull())
      .addColumn('latency_count', 'integer', (c) => c.notNull())
      .addColumn('latency_sum', time, (c) => c.notNull())
      .addColumn('latency_min', 'integer')
      .addColumn('latency_max', 'integer')
      .addColumn('players_count', 'integer', (c) => c.notNull())
      .addColumn('players_sum', time, (c) => c.notNull())
      .addColumn('players_max', 'integer')
      .addPrimaryKeyConstraint(`${table}_pk`, ['monitor_id', 'bucket_start'])
      .execute();
    await db.schema.createIndex(`${table}_time`).on(table).column('bucket_start').execute();
  }
}

/** Pages and what they show: components, incidents and their updates, maintenance. */
async function pageTables(db: AnyDb): Promise<void> {
  await tableWithId(db, 'pages')
    .$call(organizationId)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('custom_domain', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('ai_policy', 'text', (c) => c.notNull().check(sql`ai_policy in ('allow', 'disallow')`))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  await tableWithId(db, 'components')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('group_name', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('monitor_id', 'text', (c) => c.references('monitors.id').onDelete('set null'))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('components_page_key', ['page_id', 'key'])
    .execute();
  await createIndex(db, 'components_monitor', 'components', ['monitor_id']);

  await tableWithId(db, 'incidents')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('impact', 'text', (c) => c.notNull())
    .addColumn('started_at', time, (c) => c.notNull())
    .addColumn('resolved_at', time)
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('incidents_page_key', ['page_id', 'key'])
    .execute();
  await createIndex(db, 'incidents_page_started', 'incidents', ['page_id', 'started_at']);

  await tableWithId(db, 'incident_updates')
    .addColumn('incident_id', 'text', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await createIndex(db, 'incident_updates_incident', 'incident_updates', ['incident_id', 'created_at']);

  await db.schema
    .createTable('incident_components')
    .addColumn('incident_id', 'text', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('component_id', 'text', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('incident_components_pk', ['incident_id', 'component_id'])
    .execute();

  await tableWithId(db, 'maintenance')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('starts_at', time, (c) => c.notNull())
    .addColumn('ends_at', time, (c) => c.notNull())
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('maintenance_page_key', ['page_id', 'key'])
    .execute();
  await createIndex(db, 'maintenance_page_window', 'maintenance', ['page_id', 'ends_at']);

  await db.schema
    .createTable('maintenance_components')
    .addColumn('maintenance_id', 'text', (c) => c.notNull().references('maintenance.id').onDelete('cascade'))
    .addColumn('component_id', 'text', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('maintenance_components_pk', ['maintenance_id', 'component_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'maintenance_components',
    'maintenance',
    'incident_components',
    'incident_updates',
    'incidents',
    'components',
    'pages',
    'check_buckets_daily',
    'check_buckets_hourly',
    'checks',
    'monitors',
    'relays',
    'api_keys',
    'organizations',
  ])
    await db.schema.dropTable(table).execute();
}
