// What a store offers ingest besides its transactions, where it can: a batch that only stores checks and moves its
// monitors' states on, written in one statement without locking the states first (PostgreSQL:
// dialects/postgres/optimistic-ingest.ts). SQLite, one writer per process, has its own state cache instead.
import type { CheckRow } from '../domain/check.js';
import type { MonitorStateRow } from '../domain/monitor.js';

export type OptimisticWrite = 'written' | 'stale' | 'duplicate';

export interface OptimisticIngest {
  /**
   * Copies of these monitors' states, each with the version it was read at: those kept from the last write, the rest
   * read (without a lock). A monitor that does not exist is missing from the map. The caller may change the copies.
   */
  read(ids: readonly string[]): Promise<Map<string, MonitorStateRow>>;
  /** Whether `write` takes these checks (one statement of journaled checks: no location, not too many). */
  takes(checks: readonly CheckRow[]): boolean;
  /**
   * Stores the checks and writes the states (copies from `read`, changed), all or nothing, in one statement: committed
   * ('written') only if every monitor of `states` is still at the version it was read at and no check's result id is
   * stored yet. Otherwise nothing is written: 'stale' (the monitors that moved are read again by the same statement,
   * and kept for the next `read`), 'duplicate' (a result was stored before: the caller takes the locking path).
   */
  write(checks: readonly CheckRow[], states: readonly MonitorStateRow[]): Promise<OptimisticWrite>;
  /** Forgets the kept states of these monitors: written by another path, they have a new version. */
  forget(ids: readonly string[]): void;
}
