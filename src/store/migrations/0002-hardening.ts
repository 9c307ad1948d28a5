// Hardening (issue 13): a probe-target policy per organization, custom-domain verification, a change counter that
// lets every process on one database see config and API writes within a poll, and secrets withheld from a relay token
// rotated through the API.
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const time = 'bigint';
  // null: follow WARDEN_PROBE_PRIVATE_TARGETS (and its default for one or several organizations).
  await db.schema
    .alterTable('organizations')
    .addColumn('probe_private_targets', 'text', (c) => c.check(sql`probe_private_targets in ('allow', 'deny')`))
    .execute();
  // A domain claimed through the API serves nothing until `_warden.<domain>` holds the token; config's count as verified.
  await db.schema.alterTable('pages').addColumn('custom_domain_token', 'text').execute();
  await db.schema.alterTable('pages').addColumn('custom_domain_verified_at', time).execute();
  await db.schema.alterTable('pages').addColumn('custom_domain_checked_at', time).execute();
  // One row; bumped by every committed write of config or the API, polled by each process.
  await db.schema
    .createTable('change_counter')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', time, (c) => c.notNull())
    .execute();
  await db.insertInto('change_counter').values({ id: 1, version: 0 }).execute();
  // A relay token rotated through the API: the relay config withholds every secret set before then (null: nothing withheld).
  await db.schema.alterTable('relays').addColumn('secrets_withheld_before', time).execute();
  // When the monitor's secrets were last written in full (created, sent in full through the API, or by warden.yaml).
  await db.schema.alterTable('monitors').addColumn('secrets_set_at', time).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('secrets_set_at').execute();
  await db.schema.alterTable('relays').dropColumn('secrets_withheld_before').execute();
  await db.schema.dropTable('change_counter').execute();
  for (const column of ['custom_domain_checked_at', 'custom_domain_verified_at', 'custom_domain_token']) {
    await db.schema.alterTable('pages').dropColumn(column).execute();
  }
  await db.schema.alterTable('organizations').dropColumn('probe_private_targets').execute();
}
