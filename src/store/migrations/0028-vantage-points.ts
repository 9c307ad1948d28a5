// Several vantage points (issue 37): a monitor may run in more places than its own (`locations`: JSON array of 'edge'
// and relay ids; null: only its own place), with a quorum (`quorum`: down when at least N of the locations heard from
// fail; null: a majority). `location_results` keeps each location's latest result (JSON, written by ingest with the
// state). A check of such a monitor names its location (`checks.location`: 'edge' or a relay id); null is a check of
// a single-location monitor, or one stored before this migration: its place is the one its source says (docs/states.md).
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('locations', 'text').execute();
  await db.schema.alterTable('monitors').addColumn('quorum', 'integer').execute();
  await db.schema.alterTable('monitors').addColumn('location_results', 'text').execute();
  await db.schema.alterTable('checks').addColumn('location', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('checks').dropColumn('location').execute();
  await db.schema.alterTable('monitors').dropColumn('location_results').execute();
  await db.schema.alterTable('monitors').dropColumn('quorum').execute();
  await db.schema.alterTable('monitors').dropColumn('locations').execute();
}
