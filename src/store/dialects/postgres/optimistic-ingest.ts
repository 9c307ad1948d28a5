// PostgreSQL's optimistic ingest (store/optimistic-ingest.ts): a commit that only journals checks and moves its
// monitors' states on is one statement, committed on its own, instead of a transaction of four (begin, the states read
// and locked, the writes, commit). The states are kept from one commit to the next with their version: a digest of what
// ingest decides from (state, streak, player alerts, the monitor's settings), not of the latest result. The statement
// locks the monitors (in id order, as the locking path does: never a wait in a circle) and writes only if each is
// still at the version it was read at; otherwise it writes nothing and returns the rows that moved, for the next try.
// So processes that store results for the same monitors at once, none moving a state, do not make each other retry:
// the latest check and result are the newest of theirs (the statement keeps whichever is newer). A batch that does
// move a monitor's state or streak also needs that monitor's latest check unchanged: a newer one stored meanwhile may
// make its results late. A 200 still comes after the commit: the statement is its own transaction, answered once it
// is durable.
import { CompiledQuery } from 'kysely';
import type { CheckRow } from '../../../domain/check.js';
import type { MonitorStateRow } from '../../../domain/monitor.js';
import type { OptimisticIngest } from '../../optimistic-ingest.js';
import { STATE_COLUMNS, type StateRow, toStateRow } from '../../repositories/monitor-states.js';
import type { Db } from '../../tables.js';
import { JOURNAL_MAX_BATCH } from './check-journal.js';
import { prepared } from './prepared.js';

/** States kept at most; past it the cache starts over (one row is a few hundred bytes). */
export const KEPT_STATES_MAX = 20_000;
/** PostgreSQL's code for a unique violation: a result id journaled by a commit that raced this one. */
const UNIQUE_VIOLATION = '23505';

const COLUMNS = STATE_COLUMNS.join(', ');

/** What ingest decides from: every state column but the latest check's time and result. */
const DECIDING = STATE_COLUMNS.filter((c) => c !== 'id' && c !== 'last_check_at' && c !== 'last_result');
/** A row's version: moves when (and only when) one of the columns ingest decides from does. */
const VERSION = (table: string) => `md5(row(${DECIDING.map((c) => `${table}.${c}`).join(', ')})::text)`;

const READ = prepared(`select ${COLUMNS}, ${VERSION('monitors')} as version from monitors where id = any($1::text[])`);

/** The states' columns the statement writes, with their arrays' parameters ($3…$9; $1 holds the ids, $2 the versions). */
const WRITTEN = [
  ['state', 'text'],
  ['state_since', 'bigint'],
  ['failure_streak', 'integer'],
  ['last_check_at', 'bigint'],
  ['last_result', 'text'],
  ['player_alerts_state', 'text'],
  ['location_results', 'text'],
] as const;
/** The journal's columns, with their arrays' parameters ($10…$19); $20 and $21 say which states move, from when. */
const JOURNALED = [
  ['monitor_id', 'text'],
  ['checked_at', 'bigint'],
  ['ok', 'integer'],
  ['degraded', 'integer'],
  ['latency_ms', 'integer'],
  ['message', 'text'],
  ['error', 'text'],
  ['data', 'text'],
  ['source', 'text'],
  ['result_id', 'text'],
] as const;
const param = (n: number, type: string) => `$${n}::${type}[]`;
const stateArrays = WRITTEN.map(([, type], i) => param(3 + i, type)).join(', ');
const journalArrays = JOURNALED.map(([, type], i) => param(10 + i, type)).join(', ');
/** Whether the batch's latest check is newer than (or as new as) the one stored: of another process, perhaps. */
const NEWER = 'v.last_check_at >= monitors.last_check_at or monitors.last_check_at is null';
/** A column's new value: the latest check and result are the newer of the batch's and the stored ones. */
function assigned(column: string): string {
  if (column === 'last_check_at') return 'greatest(monitors.last_check_at, v.last_check_at)';
  if (column === 'last_result') return `case when ${NEWER} then v.last_result else monitors.last_result end`;
  return `v.${column}`;
}
/** Columns of `l` other than the id, as nulls in the rows that are not a monitor's state. */
const NULLS = STATE_COLUMNS.slice(1)
  .map(() => 'null')
  .join(', ');

/**
 * The write, in two forms. `checks` is partitioned by day, and a prepared statement's plan that reads it, even in a
 * branch no row reaches, locks and opens every partition and its indexes each time it runs: four locks per day kept,
 * every commit (PostgreSQL 15). A batch without result ids (heartbeats, the edge's checks) has a prepared statement
 * without the lookup of replayed ids. A batch holding a relay's result ids is refused if one is stored already, in the
 * journal or in `checks`; its statement is sent unprepared, so PostgreSQL plans it with the batch's times ($22, $23:
 * the earliest and latest) and keeps only those days' partitions: at a year of checks kept, the prepared plan's 1,500
 * locks a commit, a few commits at once, would fill the server's lock table (`out of shared memory`).
 */
function writeStatement(resultIds: boolean): string {
  const dup = `,
  dup as materialized (
    select 1 as one from unnest($10::text[], $11::bigint[], $19::text[]) as r(monitor_id, checked_at, result_id)
    where r.result_id is not null and (
      exists (select 1 from checks c
        where c.monitor_id = r.monitor_id and c.result_id = r.result_id and c.checked_at = r.checked_at
          and c.checked_at between $22::bigint and $23::bigint)
      or exists (select 1 from check_journal j where j.monitor_id = r.monitor_id and j.result_id = r.result_id))
    limit 1)`;
  const text = `with l as materialized (
    select ${COLUMNS}, ${VERSION('monitors')} as version from monitors where id = any($1::text[])
    order by id for no key update),
  stale as materialized (
    select x.id from unnest($1::text[], $2::text[], $20::boolean[], $21::bigint[]) as x(id, version, moves, since)
    left join l on l.id = x.id
    where l.version is distinct from x.version or (x.moves and l.last_check_at is distinct from x.since))${resultIds ? dup : ''},
  go as materialized (select not exists (select 1 from stale)${resultIds ? ' and not exists (select 1 from dup)' : ''} as ok),
  s as (update monitors set ${WRITTEN.map(([c]) => `${c} = ${assigned(c)}`).join(', ')}
    from unnest($1::text[], ${stateArrays}, $20::boolean[]) as v(id, ${WRITTEN.map(([c]) => c).join(', ')}, moves)
    where (select ok from go) and monitors.id = v.id
    returning monitors.id, case when v.moves then ${VERSION('monitors')} end as version),
  j as (insert into check_journal (${JOURNALED.map(([c]) => c).join(', ')})
    select * from unnest(${journalArrays}) where (select ok from go))
  select 'stale' as kind, l.* from l join stale on stale.id = l.id
  union all select 'moved', s.id, ${NULLS}, s.version from s where s.version is not null
  union all select 'written', null, ${NULLS}, (select count(*) from s)::text${
    resultIds ? `\n  union all select 'duplicate', null, ${NULLS}, null from dup` : ''
  }`;
  return resultIds ? text : prepared(text);
}
const WRITE_RESULTS = writeStatement(true);
const WRITE_CHECKS = writeStatement(false);

type Kept = { row: MonitorStateRow; version: string };
/**
 * What the statement returns: the rows that moved under the batch ('stale'), else the new version of each monitor
 * whose state the batch moved ('moved': the others keep theirs) and how many it wrote ('written', in `version`).
 */
type ReturnedRow = StateRow & { kind: 'stale' | 'moved' | 'written' | 'duplicate'; version: string };

/** `appended`: the journal's, arming its fold. */
export function postgresOptimisticIngest(db: Db, appended: () => void): OptimisticIngest {
  const kept = new Map<string, Kept>();

  function keep(id: string, entry: Kept): void {
    if (!kept.has(id) && kept.size >= KEPT_STATES_MAX) kept.clear();
    kept.set(id, entry);
  }

  const copies = (ids: readonly string[]) => {
    const out = new Map<string, MonitorStateRow>();
    for (const id of ids) {
      const entry = kept.get(id);
      if (entry) out.set(id, { ...entry.row });
    }
    return out;
  };

  return {
    async read(ids) {
      const missing = ids.filter((id) => !kept.has(id));
      if (missing.length > 0) {
        const { rows } = await db.executeQuery<StateRow & { version: string }>(CompiledQuery.raw(READ, [missing]));
        for (const r of rows) keep(r.id, { row: toStateRow(r), version: r.version });
      }
      return copies(ids);
    },
    takes: (checks) => checks.length <= JOURNAL_MAX_BATCH && checks.every((c) => c.location == null),
    async write(checks, states) {
      const sorted = [...states].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      let rows: ReturnedRow[];
      try {
        const values = parameters(sorted, checks, kept);
        const replayable = checks.filter((c) => c.resultId !== null).map((c) => c.checkedAt);
        const query =
          replayable.length === 0
            ? CompiledQuery.raw(WRITE_CHECKS, values)
            : CompiledQuery.raw(WRITE_RESULTS, [...values, Math.min(...replayable), Math.max(...replayable)]);
        ({ rows } = await db.executeQuery<ReturnedRow>(query));
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION) return 'duplicate';
        throw error;
      }
      if (rows.some((r) => r.kind === 'duplicate')) return 'duplicate';
      const stale = rows.filter((r) => r.kind === 'stale');
      const written = Number(rows.find((r) => r.kind === 'written')?.version ?? 0);
      if (stale.length > 0 || written < sorted.length) {
        // Those that moved are kept as they are now; one gone (deleted) is forgotten, and read as missing next time.
        for (const s of sorted) kept.delete(s.id);
        for (const r of stale) keep(r.id, { row: toStateRow(r), version: r.version });
        return 'stale';
      }
      // A monitor the batch did not move keeps the version it was read at (the statement checked it still had it).
      const versions = new Map(rows.filter((r) => r.kind === 'moved').map((r) => [r.id, r.version]));
      for (const s of sorted)
        keep(s.id, { row: { ...s }, version: versions.get(s.id) ?? (kept.get(s.id)?.version as string) });
      if (checks.length > 0) appended();
      return 'written';
    },
    forget(ids) {
      for (const id of ids) kept.delete(id);
    },
  };
}

function parameters(states: readonly MonitorStateRow[], checks: readonly CheckRow[], kept: ReadonlyMap<string, Kept>) {
  const state = <T>(pick: (m: MonitorStateRow) => T) => states.map(pick);
  const check = <T>(pick: (c: CheckRow) => T) => checks.map(pick);
  return [
    state((m) => m.id),
    // A state not kept (forgotten meanwhile) has no version: it counts as moved, and is read again.
    state((m) => kept.get(m.id)?.version ?? ''),
    state((m) => m.state),
    state((m) => m.stateSince),
    state((m) => m.failureStreak),
    state((m) => m.lastCheckAt),
    state((m) => m.lastResult),
    state((m) => m.playerAlertsState),
    state((m) => m.locationResults ?? null),
    check((c) => c.monitorId),
    check((c) => c.checkedAt),
    check((c) => (c.ok ? 1 : 0)),
    check((c) => (c.degraded ? 1 : 0)),
    check((c) => c.latencyMs),
    check((c) => c.message),
    check((c) => c.error),
    check((c) => (c.data === null ? null : JSON.stringify(c.data))),
    check((c) => c.source),
    check((c) => c.resultId),
    state((m) => moves(m, kept.get(m.id)?.row)),
    state((m) => kept.get(m.id)?.row.lastCheckAt ?? null),
  ];
}

/** Whether the batch moves what ingest decides from (its state, streak, player alerts), not only the latest check. */
function moves(next: MonitorStateRow, before: MonitorStateRow | undefined): boolean {
  return (
    before === undefined ||
    next.state !== before.state ||
    next.stateSince !== before.stateSince ||
    next.failureStreak !== before.failureStreak ||
    next.playerAlertsState !== before.playerAlertsState ||
    (next.locationResults ?? null) !== (before.locationResults ?? null)
  );
}
