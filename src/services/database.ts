// The database itself: whether it answers (readiness), and bringing its schema up to date (`warden migrate`).
import type { Dialect, MigrationReport } from '../store/index.js';
import type { ServiceContext } from './context.js';

/** Resolves with the database in use once it answered; rejects when it is unreachable. */
export async function checkDatabase(ctx: ServiceContext): Promise<{ database: Dialect }> {
  await ctx.store.ping();
  return { database: ctx.store.dialect };
}

/** Applies pending migrations; `location` names the database (without credentials) for messages. */
export async function migrateDatabase(ctx: ServiceContext): Promise<MigrationReport & { location: string }> {
  return { ...(await ctx.store.migrate()), location: ctx.store.location };
}
