// Alerts (store.alerts): each monitor's open problem and its acknowledgement and escalation. Every change is a
// conditional update (open once per monitor, acknowledged once, each escalation step recorded once), so processes
// sharing the database agree on what happened without a lock.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Alert } from '../../domain/alert.js';
import type { AlertsTable, Db } from '../tables.js';
import { inChunks } from './in-chunks.js';
import { findOne, mapped } from './query.js';
import { fromColumns } from './rows.js';

export interface AlertQuery {
  organizationId: string;
  state: 'open' | 'resolved' | 'all';
  monitorId?: string | undefined;
  limit: number;
}

export interface AlertRepository {
  /** Opens the monitor's alert unless one is open: the open one either way. */
  open(
    alert: Pick<Alert, 'id' | 'organizationId' | 'monitorId' | 'openedAt' | 'openedState' | 'policyId'>,
  ): Promise<Alert>;
  findOpen(monitorId: string): Promise<Alert | undefined>;
  findById(id: string): Promise<Alert | undefined>;
  /** Closes the monitor's open alert: the alert closed, or undefined when none was open. */
  close(monitorId: string, at: number): Promise<Alert | undefined>;
  /** Newest first. */
  list(query: AlertQuery): Promise<Alert[]>;
  /** Open alerts of these monitors. */
  openOf(monitorIds: readonly string[]): Promise<Alert[]>;
  /** Open, unacknowledged alerts following a policy, over every organization: what the escalation scan reads. */
  listEscalating(): Promise<Alert[]>;
  /** Acknowledges an open alert not acknowledged yet: true when this call did. */
  acknowledge(id: string, ack: { at: number; by: string; note: string | null }): Promise<boolean>;
  /**
   * Records steps up to `to` delivered, to these channels besides the earlier steps', if `from` were the steps
   * delivered and the alert is still open and unacknowledged: true when this call did (the caller then delivers them).
   */
  recordSteps(id: string, from: number, to: number, channels: readonly string[]): Promise<boolean>;
}

const toAlert = (r: Selectable<AlertsTable>): Alert => ({
  ...fromColumns(r, [
    'id',
    'organizationId',
    'monitorId',
    'openedState',
    'acknowledgedBy',
    'ackNote',
    'policyId',
    'stepsSent',
  ]),
  openedAt: Number(r.opened_at),
  closedAt: r.closed_at === null ? null : Number(r.closed_at),
  acknowledgedAt: r.acknowledged_at === null ? null : Number(r.acknowledged_at),
  stepChannels: JSON.parse(r.step_channels) as string[],
});

export function alertRepository(db: Db): AlertRepository {
  const alerts = () => db.selectFrom('alerts').selectAll();
  const findOpen = async (monitorId: string) =>
    mapped(
      await alerts().where('monitor_id', '=', monitorId).where('closed_at', 'is', null).executeTakeFirst(),
      toAlert,
    );
  return {
    async open(alert) {
      const opened = await insertOpen(alert.id);
      // The same id closed already (down, up and down again within one millisecond): a fresh one.
      if (opened === undefined) await insertOpen(`${alert.id}${randomBytes(3).toString('hex')}`);
      const open = await findOpen(alert.monitorId);
      if (!open) throw new Error(`alert ${alert.id} was neither opened nor open`);
      return open;

      async function insertOpen(id: string) {
        return (
          db
            .insertInto('alerts')
            .values({
              id,
              organization_id: alert.organizationId,
              monitor_id: alert.monitorId,
              opened_at: alert.openedAt,
              opened_state: alert.openedState,
              policy_id: alert.policyId,
              steps_sent: 0,
              step_channels: '[]',
            })
            // The one open alert per monitor (or this very alert, replayed) wins.
            .onConflict((oc) => oc.doNothing())
            .returning('id')
            .executeTakeFirst()
            .then(async (row) => row ?? (await findOpen(alert.monitorId)))
        );
      }
    },
    findOpen,
    findById: async (id) => mapped(await findOne(db, 'alerts', { id }), toAlert),
    async close(monitorId, at) {
      const open = await findOpen(monitorId);
      if (!open) return undefined;
      const closed = await db
        .updateTable('alerts')
        .set({ closed_at: at })
        .where('id', '=', open.id)
        .where('closed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return mapped(closed, toAlert);
    },
    async list({ organizationId, state, monitorId, limit }) {
      let query = alerts().where('organization_id', '=', organizationId);
      if (state === 'open') query = query.where('closed_at', 'is', null);
      if (state === 'resolved') query = query.where('closed_at', 'is not', null);
      if (monitorId !== undefined) query = query.where('monitor_id', '=', monitorId);
      return (await query.orderBy('opened_at', 'desc').orderBy('id').limit(limit).execute()).map(toAlert);
    },
    async openOf(monitorIds) {
      // In chunks: a commit's recovering monitors may be up to a whole batch (2,000).
      const rows = await inChunks(monitorIds, (chunk) =>
        alerts().where('monitor_id', 'in', chunk).where('closed_at', 'is', null).execute(),
      );
      return rows.map(toAlert);
    },
    async listEscalating() {
      return (
        await alerts()
          .where('closed_at', 'is', null)
          .where('acknowledged_at', 'is', null)
          .where('policy_id', 'is not', null)
          .orderBy('opened_at')
          .execute()
      ).map(toAlert);
    },
    async acknowledge(id, ack) {
      const result = await db
        .updateTable('alerts')
        .set({ acknowledged_at: ack.at, acknowledged_by: ack.by, ack_note: ack.note })
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .where('acknowledged_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async recordSteps(id, from, to, channels) {
      const current = await findOne(db, 'alerts', { id });
      if (!current) return false;
      const keys = [...new Set([...(JSON.parse(current.step_channels) as string[]), ...channels])];
      const result = await db
        .updateTable('alerts')
        .set({ steps_sent: to, step_channels: JSON.stringify(keys) })
        .where('id', '=', id)
        .where('steps_sent', '=', from)
        .where('closed_at', 'is', null)
        .where('acknowledged_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
