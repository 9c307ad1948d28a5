// The public page, presented (issue 17): a page's language and time zone, its branding (accent colour, logo, favicon,
// header links, footer, custom CSS), the images uploaded with it, and the fewest players per bucket (the players
// chart shows min/avg/max per hour).
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

const time = 'bigint';

export async function up(db: AnyDb): Promise<void> {
  // Null: the reader's language (Accept-Language); else one of the shipped catalogues' tags.
  await db.schema.alterTable('pages').addColumn('language', 'text').execute();
  // IANA name; dates and times on the page are shown in it.
  await db.schema
    .alterTable('pages')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
  // JSON: accent colour, logo and favicon URLs, header links, footer text, "Powered by" shown or not.
  await db.schema
    .alterTable('pages')
    .addColumn('branding', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  // Served as the page's own stylesheet, under the page's Content-Security-Policy.
  await db.schema.alterTable('pages').addColumn('custom_css', 'text').execute();

  // Images stored with a page (its uploaded logo and favicon). Base64 text: the same column type on both dialects,
  // and the caps (docs/pages.md) keep them small.
  await db.schema
    .createTable('page_assets')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // SHA-256 of the bytes, hex: the asset's ETag and the version in its URL.
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('page_assets_pk', ['page_id', 'name'])
    .execute();

  for (const table of ['check_buckets_hourly', 'check_buckets_daily'])
    await db.schema.alterTable(table).addColumn('players_min', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['check_buckets_hourly', 'check_buckets_daily'])
    await db.schema.alterTable(table).dropColumn('players_min').execute();
  await db.schema.dropTable('page_assets').execute();
  for (const column of ['custom_css', 'branding', 'time_zone', 'language'])
    await db.schema.alterTable('pages').dropColumn(column).execute();
}
