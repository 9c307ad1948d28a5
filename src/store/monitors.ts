// Monitors: what to check (type + config), where it runs, and its current state and latest result.
import type { CheckSource, MonitorState, MonitorType, RunOn } from '../domain/monitor-type.js';
import type { Db } from './connect.js';
import type { ManagedBy, MonitorsTable } from './tables.js';

export interface LatestResult {
  checkedAt: number;
  ok: boolean;
  latencyMs: number | null;
  message: string | null;
  error: string | null;
  data: Record<string, unknown> | null;
  source: CheckSource;
}

export interface Monitor {
  id: string;
  organizationId: string;
  key: string;
  name: string;
  type: MonitorType;
  config: Record<string, unknown>;
  intervalSec: number;
  timeoutMs: number;
  runOn: RunOn;
  relayId: string | null;
  pushTokenPrefix: string | null;
  enabled: boolean;
  retries: number;
  degradedLatencyMs: number | null;
  state: MonitorState;
  stateSince: number;
  failureStreak: number;
  lastCheckAt: number | null;
  lastResult: LatestResult | null;
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

/** The fields a writer (config sync or API) sets; state fields are the ingest path's alone. */
export type MonitorSpec = Pick<
  Monitor,
  'key' | 'name' | 'type' | 'config' | 'intervalSec' | 'timeoutMs' | 'runOn' | 'relayId' | 'enabled' | 'retries' | 'degradedLatencyMs'
>;

export function toMonitor(r: MonitorsTable): Monitor {
  return {
    id: r.id,
    organizationId: r.organization_id,
    key: r.key,
    name: r.name,
    type: r.type as MonitorType,
    config: JSON.parse(r.config) as Record<string, unknown>,
    intervalSec: r.interval_sec,
    timeoutMs: r.timeout_ms,
    runOn: r.run_on,
    relayId: r.relay_id,
    pushTokenPrefix: r.push_token_prefix,
    enabled: r.enabled === 1,
    retries: r.retries,
    degradedLatencyMs: r.degraded_latency_ms,
    state: r.state,
    stateSince: r.state_since,
    failureStreak: r.failure_streak,
    lastCheckAt: r.last_check_at,
    lastResult: r.last_result === null ? null : (JSON.parse(r.last_result) as LatestResult),
    managedBy: r.managed_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function specColumns(spec: MonitorSpec) {
  return {
    key: spec.key,
    name: spec.name,
    type: spec.type,
    config: JSON.stringify(spec.config),
    interval_sec: spec.intervalSec,
    timeout_ms: spec.timeoutMs,
    run_on: spec.runOn,
    relay_id: spec.relayId,
    enabled: spec.enabled ? 1 : 0,
    retries: spec.retries,
    degraded_latency_ms: spec.degradedLatencyMs,
  };
}

export async function listMonitors(db: Db, organizationId: string): Promise<Monitor[]> {
  const rows = await db.selectFrom('monitors').selectAll().where('organization_id', '=', organizationId).orderBy('key').execute();
  return rows.map(toMonitor);
}

export async function countMonitors(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Keys of the monitors a relay runs. */
export async function monitorKeysOnRelay(db: Db, relayId: string): Promise<string[]> {
  const rows = await db.selectFrom('monitors').select('key').where('relay_id', '=', relayId).orderBy('key').execute();
  return rows.map((r) => r.key);
}

export async function listAllMonitors(db: Db): Promise<Monitor[]> {
  const rows = await db.selectFrom('monitors').selectAll().orderBy('id').execute();
  return rows.map(toMonitor);
}

export async function findMonitorById(db: Db, id: string): Promise<Monitor | undefined> {
  const row = await db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toMonitor(row);
}

export async function findMonitorByKey(db: Db, organizationId: string, key: string): Promise<Monitor | undefined> {
  const row = await db.selectFrom('monitors').selectAll().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
  return row && toMonitor(row);
}

export async function findMonitorByPushTokenHash(db: Db, hash: string): Promise<(Monitor & { pushTokenHash: string }) | undefined> {
  const row = await db.selectFrom('monitors').selectAll().where('push_token_hash', '=', hash).executeTakeFirst();
  return row && { ...toMonitor(row), pushTokenHash: row.push_token_hash as string };
}

export async function insertMonitor(
  db: Db,
  monitor: MonitorSpec & { id: string; organizationId: string; managedBy: ManagedBy; pushToken: { hash: string; prefix: string } | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('monitors')
    .values({
      id: monitor.id,
      organization_id: monitor.organizationId,
      ...specColumns(monitor),
      push_token_hash: monitor.pushToken?.hash ?? null,
      push_token_prefix: monitor.pushToken?.prefix ?? null,
      state: 'unknown',
      state_since: now,
      failure_streak: 0,
      last_check_at: null,
      last_result: null,
      managed_by: monitor.managedBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updateMonitorSpec(db: Db, id: string, spec: MonitorSpec, managedBy: ManagedBy, now: number): Promise<void> {
  await db
    .updateTable('monitors')
    .set({ ...specColumns(spec), managed_by: managedBy, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function setMonitorPushToken(db: Db, id: string, token: { hash: string; prefix: string } | null, now: number): Promise<void> {
  await db
    .updateTable('monitors')
    .set({ push_token_hash: token?.hash ?? null, push_token_prefix: token?.prefix ?? null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function monitorPushTokenHash(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('monitors').select('push_token_hash').where('id', '=', id).executeTakeFirst();
  return row?.push_token_hash ?? null;
}

export async function deleteMonitor(db: Db, id: string): Promise<void> {
  await db.deleteFrom('monitors').where('id', '=', id).execute();
}

/** Whether a writer's spec differs from what is stored (so re-applying the same config writes nothing). */
export function monitorSpecChanged(current: Monitor, spec: MonitorSpec): boolean {
  return (
    current.name !== spec.name ||
    current.type !== spec.type ||
    JSON.stringify(current.config) !== JSON.stringify(spec.config) ||
    current.intervalSec !== spec.intervalSec ||
    current.timeoutMs !== spec.timeoutMs ||
    current.runOn !== spec.runOn ||
    current.relayId !== spec.relayId ||
    current.enabled !== spec.enabled ||
    current.retries !== spec.retries ||
    current.degradedLatencyMs !== spec.degradedLatencyMs
  );
}
