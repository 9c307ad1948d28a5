// A SQLite file another tool wrote, opened the way an import must read a file it cannot trust: read-only, with nothing
// in the file's schema able to run. Only real tables are read (a view or a virtual table of the expected name counts as
// absent: a view can be an endless recursive query), only stored columns (a generated column computes on read),
// with trusted_schema off; each table at most `rowsPerTable` rows, every row before a deadline. CHECK constraints,
// defaults and triggers only act on writes, which a read-only, query-only connection never makes.
import SqliteDatabase from 'better-sqlite3';

export interface ForeignReadLimits {
  /** Rows one table may hold; a table holding more is refused, not cut. */
  rowsPerTable: number;
  /** Milliseconds from opening the file to the end of its read. */
  readMs: number;
}

/** The file cannot be read: not SQLite, malformed, over a limit, or too slow to read. The message names the file. */
export class ForeignFileError extends Error {}

/** How a cell is typed on the way out, whatever the file stored in it. */
export type CellKind =
  /** An integer, required: a row without one is a broken file. */
  | 'id'
  /** A finite number, or null. */
  | 'number'
  /** A finite number, 0 when absent. */
  | 'number!'
  /** Text (a number as its digits), or null; a blob is null. */
  | 'text'
  /** Text, '' when absent. */
  | 'text!'
  /** 0/1 (or knex's "true"/"false"); false when absent. */
  | 'bool'
  /** 0/1, or null when absent. */
  | 'bool?';

export type Cell = string | number | boolean | null;

export interface ForeignSqlite {
  /** Whether the file has a real table of this name (SQLite's names ignore case). */
  has(table: string): boolean;
  /** What the file holds under a name that is not a real table ("a view", "a virtual table"), to say why it was not read. */
  notTable(name: string): string | undefined;
  /** The stored columns of a real table; empty when there is none. */
  columns(table: string): ReadonlySet<string>;
  /**
   * The rows of a real table (none when it is absent), each with exactly the keys of `kinds`, typed by them: a column
   * the table lacks reads as absent, or from its `rename` source when it has that one. Ordered by those of `order` it
   * has. Throws ForeignFileError past the row cap or the deadline.
   */
  rows(
    table: string,
    kinds: Readonly<Record<string, CellKind>>,
    options?: { rename?: Readonly<Record<string, string>>; order?: readonly string[] },
  ): Record<string, Cell>[];
  /** A statement over real tables, built by the caller from names this reader vouched for. */
  prepare(sql: string): SqliteDatabase.Statement;
  close(): void;
}

/** Opens `file` read-only and lists its real tables; throws ForeignFileError when it is not a SQLite file. */
export function openForeignSqlite(file: string, limits: ForeignReadLimits): ForeignSqlite {
  const deadline = Date.now() + limits.readMs;
  const fail = (what: string, error: unknown) => new ForeignFileError(`${file}: ${what} (${(error as Error).message})`);
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw fail('cannot be opened as SQLite', error);
  }
  const inTime = () => {
    if (Date.now() >= deadline)
      throw new ForeignFileError(`${file}: reading it took longer than ${limits.readMs / 1000} s`);
  };
  let tables: Map<string, { name: string; columns: Set<string> }>;
  let others: Map<string, string>;
  try {
    database.pragma('query_only = ON');
    database.pragma('trusted_schema = OFF');
    database.pragma('cell_size_check = ON');
    database.pragma('mmap_size = 0');
    ({ tables, others } = schemaOf(database, inTime));
  } catch (error) {
    database.close();
    throw error instanceof ForeignFileError ? error : fail('cannot be read as SQLite', error);
  }

  return {
    has: (table) => tables.has(table.toLowerCase()),
    notTable: (name) => others.get(name.toLowerCase()),
    columns: (table) => tables.get(table.toLowerCase())?.columns ?? new Set(),
    rows(table, kinds, options = {}) {
      const found = tables.get(table.toLowerCase());
      if (found === undefined) return [];
      const sourceOf = (name: string) =>
        [name, options.rename?.[name]].find((source) => source !== undefined && found.columns.has(source));
      const list = Object.keys(kinds).map((name) => {
        const source = sourceOf(name);
        return source === undefined ? `null as ${quote(name)}` : `${quote(source)} as ${quote(name)}`;
      });
      const order = (options.order ?? []).filter((name) => found.columns.has(name)).map(quote);
      const sql = `select ${list.join(', ')} from main.${quote(found.name)}${order.length > 0 ? ` order by ${order.join(', ')}` : ''} limit ${limits.rowsPerTable + 1}`;
      const out: Record<string, Cell>[] = [];
      try {
        for (const row of database.prepare(sql).iterate() as Iterable<Record<string, unknown>>) {
          if (out.length === limits.rowsPerTable)
            throw new ForeignFileError(`${file}: table ${found.name} holds more than ${limits.rowsPerTable} rows`);
          inTime();
          out.push(typedRow(row, kinds, () => `${file}: table ${found.name}, row ${out.length + 1}`));
        }
      } catch (error) {
        throw error instanceof ForeignFileError ? error : fail(`cannot read table ${found.name}`, error);
      }
      return out;
    },
    prepare(sql) {
      try {
        return database.prepare(sql);
      } catch (error) {
        throw fail('cannot be read', error);
      }
    },
    close() {
      database.close();
    },
  };
}

/**
 * Tables that are tables: sqlite_schema's type `table` with a b-tree of their own and a plain CREATE TABLE; and what
 * the other names are (views, virtual tables).
 */
function schemaOf(database: SqliteDatabase.Database, inTime: () => void) {
  const entries = database
    .prepare("select type, name, sql, rootpage from main.sqlite_schema where type in ('table', 'view')")
    .all() as Record<string, unknown>[];
  const tables = new Map<string, { name: string; columns: Set<string> }>();
  const others = new Map<string, string>();
  for (const { type, name, sql, rootpage } of entries) {
    inTime();
    if (typeof name !== 'string') continue;
    if (
      type !== 'table' ||
      typeof sql !== 'string' ||
      !createsPlainTable(sql) ||
      typeof rootpage !== 'number' ||
      rootpage <= 0
    ) {
      others.set(name.toLowerCase(), type === 'view' ? 'a view' : 'a virtual table');
      continue;
    }
    // hidden 0: stored columns only; a generated column (2 virtual, 3 stored) is computed from the file's expression.
    const columns = database.prepare("select name from pragma_table_xinfo(?, 'main') where hidden = 0").all(name) as {
      name: string;
    }[];
    tables.set(name.toLowerCase(), { name, columns: new Set(columns.map((c) => c.name)) });
  }
  return { tables, others };
}

/** Whether a schema entry's first two words (comments skipped) are CREATE TABLE: not CREATE VIRTUAL TABLE. */
export function createsPlainTable(sql: string): boolean {
  const words: string[] = [];
  const token = /\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$)|([A-Za-z_]+)|([\s\S])/y;
  for (let match = token.exec(sql); match !== null && words.length < 2; match = token.exec(sql)) {
    if (match[2] !== undefined) break;
    if (match[1] !== undefined) words.push(match[1].toUpperCase());
  }
  return words[0] === 'CREATE' && words[1] === 'TABLE';
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function typedRow(
  row: Record<string, unknown>,
  kinds: Readonly<Record<string, CellKind>>,
  where: () => string,
): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const value = cellOf(row[name], kind);
    if (value === undefined) throw new ForeignFileError(`${where()}: ${name} is not an integer`);
    out[name] = value;
  }
  return out;
}

/** A cell as `kind` says; undefined only for an `id` that is not an integer. */
function cellOf(value: unknown, kind: CellKind): Cell | undefined {
  switch (kind) {
    case 'id': {
      const number = numberOf(value);
      return number !== null && Number.isSafeInteger(number) ? number : undefined;
    }
    case 'number':
      return numberOf(value);
    case 'number!':
      return numberOf(value) ?? 0;
    case 'text':
      return textOf(value);
    case 'text!':
      return textOf(value) ?? '';
    case 'bool':
      return booleanOf(value) ?? false;
    case 'bool?':
      return booleanOf(value);
  }
}

function numberOf(value: unknown): number | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint' || (typeof value === 'string' && value.trim() !== '')
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : null;
}

/** SQLite keeps booleans as 0/1 (knex on some versions as "true"/"false" text). */
function booleanOf(value: unknown): boolean | null {
  return value === null || value === undefined || typeof value === 'object'
    ? null
    : value === 1 || value === '1' || value === 'true';
}
