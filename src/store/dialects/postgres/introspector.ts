// What PostgreSQL tables this store has, in its own schema only: Kysely's migrator looks tables up by name, and its stock
// introspector reads every schema of the database, failing when another tenant's (or test's) schema is dropped meanwhile.
import { type DatabaseIntrospector, type Kysely, PostgresDialect, sql, type TableMetadata } from 'kysely';

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  type: string;
  nullable: boolean;
  has_default: boolean;
}

/** Catalog tables only, filtered to the current schema before anything else: no catalog function runs on other schemas' rows. */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas() {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return rows;
  }

  async getTables(
    options: { withInternalKyselyTables: boolean } = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      select ns.nspname as schema, cls.relname as table, cls.relkind as kind, att.attname as column, typ.typname as type,
        not att.attnotnull as nullable, att.atthasdef as has_default
      from pg_catalog.pg_namespace ns
      join pg_catalog.pg_class cls on cls.relnamespace = ns.oid
      join pg_catalog.pg_attribute att on att.attrelid = cls.oid
      join pg_catalog.pg_type typ on typ.oid = att.atttypid
      -- A partition (0034's days of checks) is its table's part, not a table of its own.
      where ns.nspname = current_schema() and cls.relkind in ('r', 'v', 'p') and not cls.relispartition
        and att.attnum > 0 and not att.attisdropped
      order by cls.relname, att.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && r.table.startsWith('kysely_')) continue;
      let table = tables.get(r.table);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] };
        tables.set(r.table, table);
      }
      table.columns.push({
        name: r.column,
        dataType: r.type,
        isNullable: r.nullable,
        hasDefaultValue: r.has_default,
        isAutoIncrementing: false,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: { withInternalKyselyTables: boolean }) {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, introspecting its current schema only. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
