// The audit log: appended by the one write path, read newest first by admins, pruned by retention.
import type { Selectable } from 'kysely';
import type { AuditEntry } from '../../domain/account.js';
import type { AuditLogTable, Db } from '../tables.js';
import { toColumns } from './rows.js';

const toEntry = (r: Selectable<AuditLogTable>): AuditEntry => ({
  id: r.id,
  organizationId: r.organization_id,
  at: Number(r.at),
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorName: r.actor_name,
  action: r.action,
  objectType: r.object_type,
  objectId: r.object_id,
  objectLabel: r.object_label,
  detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
});

export interface AuditQuery {
  organizationId: string;
  /** Entries older than this cursor (the `at` and `id` of the last entry of the previous page). */
  before?: { at: number; id: string } | undefined;
  limit: number;
  actorId?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
}

export interface AuditRepository {
  append(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEntry[]>;
  /** Removes entries older than `before`; returns how many. */
  prune(before: number): Promise<number>;
}

export function auditRepository(db: Db): AuditRepository {
  return {
    async append(e) {
      await db
        .insertInto('audit_log')
        .values({
          ...toColumns(e, [
            'id',
            'organizationId',
            'at',
            'actorKind',
            'actorId',
            'actorName',
            'action',
            'objectType',
            'objectId',
            'objectLabel',
          ]),
          detail: e.detail === null ? null : JSON.stringify(e.detail),
        })
        .execute();
    },
    async list(q) {
      let query = db.selectFrom('audit_log').selectAll().where('organization_id', '=', q.organizationId);
      if (q.before) {
        const { at, id } = q.before;
        query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      if (q.actorId !== undefined) query = query.where('actor_id', '=', q.actorId);
      if (q.objectType !== undefined) query = query.where('object_type', '=', q.objectType);
      if (q.objectId !== undefined) query = query.where('object_id', '=', q.objectId);
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map(toEntry);
    },
    async prune(before) {
      return Number((await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst()).numDeletedRows);
    },
  };
}
