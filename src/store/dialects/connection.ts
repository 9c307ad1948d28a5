// What a storage dialect provides: an open Kysely instance, how it writes an ingest commit, and how it reports its errors.
import type { CheckJournal, CheckWriter } from '../check-statements.js';
import type { DeliveryClaimer } from '../notification-statements.js';
import type { OptimisticIngest } from '../optimistic-ingest.js';
import type { DatabasePoolUse, Dialect } from '../store.js';
import type { Db } from '../tables.js';
import type { StorageFaults } from './faults.js';
import type { MonitorStateCache } from './sqlite/state-cache.js';

export interface DialectConnection {
  dialect: Dialect;
  db: Db;
  /** Human description for logs, without credentials. */
  location: string;
  writeChecks: CheckWriter;
  /** How due notification deliveries are claimed (PostgreSQL skips rows another process has locked). */
  claimDeliveries: DeliveryClaimer;
  /**
   * Whether reads inside a transaction can lock rows (SELECT … FOR UPDATE): PostgreSQL does, so two processes committing
   * results for one monitor take turns; SQLite has one writer at a time already.
   */
  locksRows: boolean;
  isUniqueViolation(error: unknown): boolean;
  /** The failures that pass (full, unreachable, locked): `db` throws them translated; others, raw, go through `translate`. */
  faults: StorageFaults;
  /** The schema the migrations table lives in, where the dialect has schemas. */
  migrationSchema(): Promise<string | undefined>;
  /** The connection pool's use now, where the dialect has one (PostgreSQL); null otherwise. */
  poolUse(): DatabasePoolUse | null;
  /**
   * Monitor states kept between ingest commits, where the dialect can tell that nothing else wrote them (SQLite, one
   * connection per process); PostgreSQL, shared by the processes of a cluster, reads them each time.
   */
  stateCache?: MonitorStateCache;
  /**
   * Where the check writer puts checks before they reach `checks` and the buckets (SQLite: the journal, folded about
   * once a second and before every read of history); PostgreSQL writes them there in the commit.
   */
  checkJournal?: CheckJournal;
  /** One-statement ingest commits where the dialect can check the states it kept (PostgreSQL). */
  optimisticIngest?: OptimisticIngest;
  /**
   * Closes what Kysely's destroy() would leave open: SQLite's file, opened here but closed by Kysely only once a query
   * has run (a start that failed before its first query would otherwise hold the file until the process exits).
   */
  closeFile?: () => void;
}

/** Opened with `create: false`, there is no Warden database there: no SQLite file, or a PostgreSQL schema never migrated. */
export class NoDatabaseError extends Error {
  constructor(readonly location: string) {
    super(`no Warden database at ${location}`);
  }
}
