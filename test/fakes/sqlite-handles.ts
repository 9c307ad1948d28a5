// The better-sqlite3 connections opened in this process while a capture runs: a test reaches a server's own connection
// with them, to change what only a connection's settings can (max_page_count, the database's size limit) as a fault would.
import SqliteDatabase from 'better-sqlite3';

export interface SqliteHandles {
  /** The connections that ran a pragma during the capture (every Warden connection does as it opens), in order. */
  handles: SqliteDatabase.Database[];
  stop(): void;
}

export function captureSqliteHandles(): SqliteHandles {
  const handles: SqliteDatabase.Database[] = [];
  const prototype = SqliteDatabase.prototype as SqliteDatabase.Database;
  const pragma = prototype.pragma;
  prototype.pragma = function (this: SqliteDatabase.Database, ...args: Parameters<SqliteDatabase.Database['pragma']>) {
    if (!handles.includes(this)) handles.push(this);
    return pragma.apply(this, args);
  };
  return {
    handles,
    stop: () => {
      prototype.pragma = pragma;
    },
  };
}
