// The initial schema, written once for SQLite and PostgreSQL.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await organizationTables(db);
  await checkTables(db, postgres);
  await pageTables(db);
}

/** Organizations, their API keys and relays, and monitors. */
async function organizationTables(db: AnyDb): Promise<void> {
  const time = 'bigint';

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('read', 'write')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_used_at', time)
    .addColumn('revoked_at', time)
    .execute();
  await db.schema.createIndex('api_keys_organization').on('api_keys').column('organization_id').execute();

  await db.schema
    .createTable('relays')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('token_prefix', 'text')
    .addColumn('last_seen_at', time)
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('relays_organization_key', ['organization_id', 'key'])
    .execute();

  await db.schema
    .createTable('monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
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
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('monitors_organization_key', ['organization_id', 'key'])
    .execute();
  await db.schema.createIndex('monitors_relay').on('monitors').column('relay_id').execute();
}

/** Checks and their hourly and daily buckets. */
async function checkTables(db: AnyDb, postgres: boolean): Promise<void> {
  const time = 'bigint';

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
  await db.schema.createIndex('checks_monitor_time').on('checks').columns(['monitor_id', 'checked_at']).execute();
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
  const time = 'bigint';

  await db.schema
    .createTable('pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('custom_domain', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('ai_policy', 'text', (c) => c.notNull().check(sql`ai_policy in ('allow', 'disallow')`))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('components')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('group_name', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('monitor_id', 'text', (c) => c.references('monitors.id').onDelete('set null'))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('components_page_key', ['page_id', 'key'])
    .execute();
  await db.schema.createIndex('components_monitor').on('components').column('monitor_id').execute();

  await db.schema
    .createTable('incidents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('impact', 'text', (c) => c.notNull())
    .addColumn('started_at', time, (c) => c.notNull())
    .addColumn('resolved_at', time)
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('incidents_page_key', ['page_id', 'key'])
    .execute();
  await db.schema.createIndex('incidents_page_started').on('incidents').columns(['page_id', 'started_at']).execute();

  await db.schema
    .createTable('incident_updates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('incident_id', 'text', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_updates_incident')
    .on('incident_updates')
    .columns(['incident_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('incident_components')
    .addColumn('incident_id', 'text', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('component_id', 'text', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('incident_components_pk', ['incident_id', 'component_id'])
    .execute();

  await db.schema
    .createTable('maintenance')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('starts_at', time, (c) => c.notNull())
    .addColumn('ends_at', time, (c) => c.notNull())
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('maintenance_page_key', ['page_id', 'key'])
    .execute();
  await db.schema.createIndex('maintenance_page_window').on('maintenance').columns(['page_id', 'ends_at']).execute();

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
