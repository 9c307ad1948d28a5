// The dashboard's monitor list in SQL: filters, one of a few orders and a keyset page, the same on both dialects.
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Monitor } from '../../domain/monitor.js';
import type { MonitorState } from '../../domain/monitor-type.js';
import type { Database, Db, Dialect } from '../tables.js';
import { toMonitor } from './monitor-rows.js';

/**
 * The orders of the dashboard's monitor list, each breaking ties by lower-cased name, then id: by name; by state (down,
 * degraded, unknown, up, then paused); by latest latency, slowest first (none last); by the latest state change, newest first.
 */
export type MonitorSort = 'name' | 'state' | 'latency' | 'recent';

/** Where a monitor stands in a sort: its sort value, its lower-cased name and its id (a keyset cursor). */
export type MonitorPosition = readonly [number, string, string];

/** A filtered, sorted page of an organization's monitors (docs/api.md, "List monitors"). */
export interface MonitorQuery {
  organizationId: string;
  /** A case-insensitive part of the name or key. */
  search?: string | undefined;
  /** A state of enabled monitors, or `paused`: the disabled ones. */
  state?: MonitorState | 'paused' | undefined;
  type?: string | undefined;
  /** A tag in MONITOR_TAG's charset (matched inside the stored JSON array). */
  tag?: string | undefined;
  /** Monitors a component of this page shows. */
  pageId?: string | undefined;
  relayId?: string | undefined;
  sort: MonitorSort;
  /** Monitors after this position (the last of the previous page). */
  after?: MonitorPosition | undefined;
  limit: number;
}

/** A page of the list: the monitors matching the filters, each with its position, and how many match in all. */
export interface MonitorListPage {
  monitors: { monitor: Monitor; position: MonitorPosition }[];
  total: number;
}

type MonitorsEb = ExpressionBuilder<Database, 'monitors'>;

/** The latency of the latest result, read from its stored JSON: the one expression the dialects spell differently. */
const LATEST_LATENCY: Record<Dialect, RawBuilder<number | null>> = {
  sqlite: sql<number | null>`json_extract(last_result, '$.latencyMs')`,
  postgres: sql<number | null>`cast(cast(last_result as json) ->> 'latencyMs' as double precision)`,
};

/** Each sort as one ascending number, so a page continues with one row comparison: (value, name, id) > (…). */
function sortValue(sort: MonitorSort, dialect: Dialect): RawBuilder<number> {
  switch (sort) {
    case 'name':
      return sql<number>`0`;
    case 'state':
      return sql<number>`case when enabled = 0 then 4 when state = 'down' then 0 when state = 'degraded' then 1 when state = 'unknown' then 2 else 3 end`;
    case 'latency':
      // Slowest first, monitors without a latency last.
      return sql<number>`case when ${LATEST_LATENCY[dialect]} is null then 1 else -${LATEST_LATENCY[dialect]} end`;
    case 'recent':
      return sql<number>`-state_since`;
  }
}

/** `%part%` for LIKE, its wildcards taken literally (with ESCAPE '\'). */
function containing(part: string): string {
  return `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function monitorList(db: Db, dialect: Dialect): (query: MonitorQuery) => Promise<MonitorListPage> {
  return async (q) => {
    const filtered = db
      .selectFrom('monitors')
      .where('organization_id', '=', q.organizationId)
      .where((eb) => eb.and(filters(eb, q)));
    const value = sortValue(q.sort, dialect);
    const nameOrder = sql<string>`lower(name)`;
    let page = filtered.selectAll('monitors').select([value.as('sort_value'), nameOrder.as('name_order')]);
    if (q.after) {
      const [afterValue, afterName, afterId] = q.after;
      page = page.where(sql<SqlBool>`(${value}, ${nameOrder}, id) > (${afterValue}, ${afterName}, ${afterId})`);
    }
    // By name the value is a constant, which ORDER BY would read as a column number.
    if (q.sort !== 'name') page = page.orderBy(value);
    const [rows, count] = await Promise.all([
      page.orderBy(nameOrder).orderBy('id').limit(q.limit).execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      monitors: rows.map(({ sort_value, name_order, ...row }) => ({
        monitor: toMonitor(row),
        position: [Number(sort_value), name_order, row.id] as MonitorPosition,
      })),
      total: Number(count.n),
    };
  };
}

function filters(eb: MonitorsEb, q: MonitorQuery): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (q.search !== undefined && q.search !== '') {
    const pattern = containing(q.search.toLowerCase());
    out.push(
      eb.or([
        sql<SqlBool>`lower(name) like ${pattern} escape '\\'`,
        sql<SqlBool>`lower(key) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (q.state === 'paused') out.push(eb('enabled', '=', 0));
  else if (q.state !== undefined) out.push(eb.and([eb('enabled', '=', 1), eb('state', '=', q.state)]));
  if (q.type !== undefined) out.push(eb('type', '=', q.type));
  // The tag's charset (MONITOR_TAG) holds no quote or backslash, so '"tag"' can only match a whole element of the array.
  if (q.tag !== undefined) out.push(sql<SqlBool>`tags like ${containing(`"${q.tag}"`)} escape '\\'`);
  if (q.relayId !== undefined) out.push(eb('relay_id', '=', q.relayId));
  if (q.pageId !== undefined)
    out.push(
      eb(
        'id',
        'in',
        eb
          .selectFrom('components')
          .select('monitor_id')
          .where('page_id', '=', q.pageId)
          .where('monitor_id', 'is not', null)
          .$narrowType<{ monitor_id: string }>(),
      ),
    );
  return out;
}
