// Accounts (issue 16): users with their sessions, second factor, recovery codes and OpenID Connect identities; their
// memberships of organizations with a role; invitations; one-time account links (first-run setup, password reset);
// the audit log; tags on monitors (the dashboard filters by them) and a latency histogram per check bucket.
import { sql } from 'kysely';
import { type AnyDb, createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

const ROLE_CHECK = sql`role in ('viewer', 'editor', 'admin', 'owner')`;
/** Frozen here: a migration never follows today's constants. */
const LATENCY_BINS = 16;

export async function up(db: AnyDb): Promise<void> {
  await userTables(db);
  await organizationAccess(db);
}

/** Users with their sessions, recovery codes and OpenID Connect identities. */
async function userTables(db: AnyDb): Promise<void> {
  await tableWithId(db, 'users')
    // Lower-cased by the services; unique.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // scrypt; null for a user who only signs in with OpenID Connect.
    .addColumn('password_hash', 'text')
    // Base32; pending until totp_enabled_at is set.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', time)
    // The time step of the last TOTP code accepted: a code is accepted once (no replay within its window).
    .addColumn('totp_last_step', 'bigint')
    .$call(timestamps)
    .execute();

  await tableWithId(db, 'user_sessions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // SHA-256 of the cookie's token.
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('address', 'text')
    .execute();
  await createIndex(db, 'user_sessions_user', 'user_sessions', ['user_id', 'last_seen_at']);
  await createIndex(db, 'user_sessions_expiry', 'user_sessions', ['expires_at']);

  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('used_at', time)
    .addPrimaryKeyConstraint('user_recovery_codes_pk', ['user_id', 'hash'])
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['issuer', 'subject'])
    .execute();
  await createIndex(db, 'user_identities_user', 'user_identities', ['user_id']);
}

/** Memberships, invitations, account links, the audit log, state changes, tags and latency histograms. */
async function organizationAccess(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('memberships')
    .$call(organizationId)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(ROLE_CHECK))
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['organization_id', 'user_id'])
    .execute();
  await createIndex(db, 'memberships_user', 'memberships', ['user_id']);

  await tableWithId(db, 'invitations')
    .$call(organizationId)
    .addColumn('email', 'text')
    .addColumn('role', 'text', (c) => c.notNull().check(ROLE_CHECK))
    // SHA-256 of the link's token (wdi_…).
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('accepted_at', time)
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', time)
    .execute();
  await createIndex(db, 'invitations_organization', 'invitations', ['organization_id', 'created_at']);

  await db.schema
    .createTable('account_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('setup', 'password-reset')`))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .execute();

  await tableWithId(db, 'audit_log')
    .$call(organizationId)
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull().check(sql`actor_kind in ('user', 'apiKey', 'system')`))
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('object_label', 'text')
    // JSON: what changed (field names, never secrets).
    .addColumn('detail', 'text')
    .execute();
  await createIndex(db, 'audit_log_organization', 'audit_log', ['organization_id', 'at', 'id']);

  // A latency histogram per bucket (domain/check.ts LATENCY_BIN_UPPER_MS, 16 bins): p50/p95 per hour and day for the
  // dashboard's response-time chart, kept as long as the buckets are.
  for (const table of ['check_buckets_hourly', 'check_buckets_daily'])
    for (let bin = 0; bin < LATENCY_BINS; bin++)
      await db.schema
        .alterTable(table)
        .addColumn(`latency_hist_${bin}`, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

  // Every state change of a monitor, written by ingest in the commit that derives it: the detail's state history.
  await tableWithId(db, 'monitor_state_changes')
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('from_state', 'text', (c) => c.notNull())
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .execute();
  await createIndex(db, 'monitor_state_changes_monitor', 'monitor_state_changes', ['monitor_id', 'at']);

  // Who manages the organization itself: 'config' when warden.yaml declares it (the dashboard shows it read-only).
  await db.schema
    .alterTable('organizations')
    .addColumn('managed_by', 'text', (c) => c.notNull().defaultTo('api'))
    .execute();

  // JSON array of short strings; the dashboard filters monitors by them.
  await db.schema
    .alterTable('monitors')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('tags').execute();
  await db.schema.alterTable('organizations').dropColumn('managed_by').execute();
  await db.schema.dropTable('monitor_state_changes').execute();
  for (const table of ['check_buckets_hourly', 'check_buckets_daily'])
    for (let bin = 0; bin < LATENCY_BINS; bin++)
      await db.schema.alterTable(table).dropColumn(`latency_hist_${bin}`).execute();
  for (const table of [
    'audit_log',
    'account_tokens',
    'invitations',
    'memberships',
    'user_identities',
    'user_recovery_codes',
    'user_sessions',
    'users',
  ])
    await db.schema.dropTable(table).execute();
}
