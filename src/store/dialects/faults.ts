// A dialect's failures that pass (the database full, unreachable or locked) as the rest of Warden sees them: each a
// StorageUnavailableError, told to the store's availability listeners, with the writes committed counted beside them.
import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  Dialect as KyselyDialect,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { type StorageFault, StorageUnavailableError } from '../../domain/errors.js';
import type { StorageAvailability } from '../store.js';

/** The fault a driver's error stands for, or null when it is not one (a constraint, a bug: those stay as they are). */
export type FaultOf = (error: unknown) => StorageFault | null;

export interface StorageFaults {
  readonly availability: StorageAvailability;
  /** StorageUnavailableError for a fault (told to the listeners once), any other error as it is. */
  translate(error: unknown): unknown;
  /** `inner` with its driver's errors translated and its committed writes counted. */
  dialect(inner: KyselyDialect): KyselyDialect;
}

/** Statements that write, as Kysely builds them (a raw `sql` text is not counted: Warden's are reads or locks). */
const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

export function storageFaults(faultOf: FaultOf): StorageFaults {
  const listeners = new Set<(fault: StorageFault, cause: unknown) => void>();
  let committed = 0;
  /** Faults translated so far, and the last: what a rollback that fails after one is about. */
  let faults = 0;
  let lastFault: StorageUnavailableError | undefined;

  function translate(error: unknown): unknown {
    if (error instanceof StorageUnavailableError) return error;
    const fault = faultOf(error);
    if (fault === null) return error;
    for (const listener of listeners) listener(fault, error);
    faults++;
    lastFault = new StorageUnavailableError(fault, error);
    return lastFault;
  }

  /** Connections in a transaction, with the fault count when it began: their writes count when it commits. */
  const inTransaction = new WeakMap<DatabaseConnection, number>();
  const watched = new WeakSet<DatabaseConnection>();

  /**
   * The connection's own executeQuery, wrapped in place: the drivers release connections through private members,
   * so a wrapper object would not do. Begin, commit and rollback run through it too.
   */
  function watch(connection: DatabaseConnection): DatabaseConnection {
    if (watched.has(connection)) return connection;
    watched.add(connection);
    const execute = connection.executeQuery.bind(connection);
    // Awaited in a try: SQLite's connection throws at once rather than return a rejected promise.
    connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      try {
        const result = await execute<R>(query);
        if (!inTransaction.has(connection) && WRITES.has(query.query.kind)) committed++;
        return result;
      } catch (error) {
        throw translate(error);
      }
    };
    return connection;
  }

  function driver(inner: Driver): Driver {
    const guarded = <T>(work: Promise<T>): Promise<T> =>
      work.catch((error: unknown) => {
        throw translate(error);
      });
    return {
      init: () => guarded(inner.init()),
      acquireConnection: async () => watch(await guarded(inner.acquireConnection())),
      async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
        await inner.beginTransaction(connection, settings);
        inTransaction.set(connection, faults);
      },
      async commitTransaction(connection: DatabaseConnection) {
        await inner.commitTransaction(connection);
        inTransaction.delete(connection);
        committed++;
      },
      /**
       * A rollback follows a failure. When the database failed the transaction (SQLite rolls back a commit that found
       * the disk full itself, and then has no transaction to roll back; a PostgreSQL connection that died cannot roll
       * back), the rollback's own error says nothing new: the caller gets the fault instead.
       */
      async rollbackTransaction(connection: DatabaseConnection) {
        const faultsAtBegin = inTransaction.get(connection) ?? faults;
        inTransaction.delete(connection);
        try {
          await inner.rollbackTransaction(connection);
        } catch (error) {
          throw faults > faultsAtBegin && lastFault ? lastFault : translate(error);
        }
      },
      ...(inner.savepoint ? { savepoint: inner.savepoint.bind(inner) } : {}),
      ...(inner.rollbackToSavepoint ? { rollbackToSavepoint: inner.rollbackToSavepoint.bind(inner) } : {}),
      ...(inner.releaseSavepoint ? { releaseSavepoint: inner.releaseSavepoint.bind(inner) } : {}),
      releaseConnection: (connection) => inner.releaseConnection(connection),
      destroy: () => inner.destroy(),
    };
  }

  return {
    availability: {
      onFault(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      committedWrites: () => committed,
    },
    translate,
    dialect: (inner) => ({
      createAdapter: () => inner.createAdapter(),
      createDriver: () => driver(inner.createDriver()),
      createQueryCompiler: () => inner.createQueryCompiler(),
      createIntrospector: (db) => inner.createIntrospector(db),
    }),
  };
}
