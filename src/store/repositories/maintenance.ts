// Maintenance windows of a page, the components they cover and the monitors they cover directly.
import type { Selectable } from 'kysely';
import type { Maintenance, MaintenanceSpec } from '../../domain/incident.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { RecurrenceSlot } from '../../domain/recurrence.js';
import type { Db, MaintenanceTable } from '../tables.js';
import { countOf } from './count.js';
import { replaceLinks } from './links.js';
import { deleteWhere, updateWhere } from './query.js';
import { fromColumns } from './rows.js';

const fields = (spec: MaintenanceSpec) => ({
  key: spec.key,
  title: spec.title,
  description: spec.description,
  starts_at: spec.startsAt,
  ends_at: spec.endsAt,
  recurrence: spec.recurrence === null ? null : JSON.stringify(spec.recurrence),
  announce: spec.announce ? 1 : 0,
});

/** A window whose notice may be due, with its organization and what was told of it so far. */
export interface MaintenanceNoticeDue {
  window: Maintenance;
  organizationId: string;
  startedNoticeAt: number | null;
  endedNoticeAt: number | null;
}

/** A recurring window whose occurrences may need notices, with the starts of the occurrences told so far. */
export interface RecurringNoticeDue {
  window: Maintenance;
  organizationId: string;
  startedOccurrence: number | null;
  endedOccurrence: number | null;
}

export interface MaintenanceRepository {
  /** A page's windows ending at or after `endingAfter` (all when absent), soonest first. */
  list(pageId: string, endingAfter?: number): Promise<Maintenance[]>;
  count(pageId: string): Promise<number>;
  findById(id: string): Promise<Maintenance | undefined>;
  findByKey(pageId: string, key: string): Promise<Maintenance | undefined>;
  insert(window: MaintenanceSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void>;
  update(id: string, spec: MaintenanceSpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** The windows on an organization's pages ending at or after `endingAfter`. */
  listOfOrganization(organizationId: string, endingAfter: number): Promise<Maintenance[]>;
  /**
   * Windows with a notice due at `now`: started (its start came, its end ahead, not told yet) or ended (its end passed,
   * not told yet, and its start was told or it ended at or after `endedSince`). At most `limit`, soonest end first.
   */
  listNoticesDue(now: number, endedSince: number, limit: number): Promise<MaintenanceNoticeDue[]>;
  /** Records that a notice was published, only if it was not yet; true when this call did it (one process tells it). */
  markNotice(id: string, notice: 'started' | 'ended', at: number): Promise<boolean>;
  /** Recurring windows whose series began by `now` and ends at or after `endedSince`: at most `limit`, by id after `afterId`. */
  listRecurringDue(now: number, endedSince: number, limit: number, afterId?: string): Promise<RecurringNoticeDue[]>;
  /**
   * Records that the notice of the occurrence starting at `occurrenceStart` was published, only if no occurrence as
   * late was told yet; true when this call did it (one process tells each occurrence).
   */
  markOccurrence(id: string, notice: 'started' | 'ended', occurrenceStart: number): Promise<boolean>;
}

/** Windows read from their rows, each with the components and the monitors it covers. */
async function withComponents(db: Db, rows: Selectable<MaintenanceTable>[]): Promise<Maintenance[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [components, monitors] = await Promise.all([
    db.selectFrom('maintenance_components').selectAll().where('maintenance_id', 'in', ids).execute(),
    db.selectFrom('maintenance_monitors').selectAll().where('maintenance_id', 'in', ids).execute(),
  ]);
  return rows.map((r) => ({
    ...fromColumns(r, ['id', 'pageId', 'key', 'title', 'description', 'startsAt', 'endsAt']),
    recurrence: r.recurrence === null ? null : (JSON.parse(r.recurrence) as RecurrenceSlot[]),
    componentIds: components.filter((l) => l.maintenance_id === r.id).map((l) => l.component_id),
    monitorIds: monitors.filter((l) => l.maintenance_id === r.id).map((l) => l.monitor_id),
    announce: r.announce !== 0,
    ...fromColumns(r, ['managedBy', 'createdAt', 'updatedAt']),
  }));
}

export function maintenanceRepository(db: Db): MaintenanceRepository {
  const where = (column: 'id' | 'key', value: string) =>
    db.selectFrom('maintenance').selectAll().where(column, '=', value);

  return {
    async list(pageId, endingAfter) {
      let query = db.selectFrom('maintenance').selectAll().where('page_id', '=', pageId);
      if (endingAfter !== undefined) query = query.where('ends_at', '>=', endingAfter);
      return withComponents(db, await query.orderBy('starts_at').orderBy('id').limit(1000).execute());
    },
    count: (pageId) => countOf(db.selectFrom('maintenance').where('page_id', '=', pageId)),
    async listOfOrganization(organizationId, endingAfter) {
      const rows = await db
        .selectFrom('maintenance')
        .innerJoin('pages', 'pages.id', 'maintenance.page_id')
        .selectAll('maintenance')
        .where('pages.organization_id', '=', organizationId)
        .where('maintenance.ends_at', '>=', endingAfter)
        .orderBy('maintenance.starts_at')
        .orderBy('maintenance.id')
        .execute();
      return withComponents(db, rows);
    },
    async findById(id) {
      return (await withComponents(db, await where('id', id).execute()))[0];
    },
    async findByKey(pageId, key) {
      return (await withComponents(db, await where('key', key).where('page_id', '=', pageId).execute()))[0];
    },
    async insert(m, now) {
      await db
        .insertInto('maintenance')
        .values({
          id: m.id,
          page_id: m.pageId,
          ...fields(m),
          managed_by: m.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await replaceLinks(db, 'maintenance_components', m.id, m.componentIds);
      await replaceLinks(db, 'maintenance_monitors', m.id, m.monitorIds);
    },
    async update(id, spec, managedBy, now) {
      await updateWhere(db, 'maintenance', { id }, { ...fields(spec), managed_by: managedBy, updated_at: now });
      await replaceLinks(db, 'maintenance_components', id, spec.componentIds);
      await replaceLinks(db, 'maintenance_monitors', id, spec.monitorIds);
    },
    async delete(id) {
      await deleteWhere(db, 'maintenance', { id });
    },
    ...maintenanceNotices(db),
  };
}

type NoticeMethods = 'listNoticesDue' | 'markNotice' | 'listRecurringDue' | 'markOccurrence';

/** What the maintenance notices read and claim: windows due a start or end notice, once across processes. */
function maintenanceNotices(db: Db): Pick<MaintenanceRepository, NoticeMethods> {
  /**
   * Sets a notice column of a window when it is still unset (or, `newer`, older than `value`): true when this call set
   * it, so a notice goes out once whichever process gets there first.
   */
  async function claim(
    id: string,
    column: 'started_notice_at' | 'ended_notice_at' | 'started_occurrence' | 'ended_occurrence',
    value: number,
    newer: boolean,
  ): Promise<boolean> {
    const result = await db
      .updateTable('maintenance')
      .set({ [column]: value })
      .where('id', '=', id)
      .where((eb) => (newer ? eb.or([eb(column, 'is', null), eb(column, '<', value)]) : eb(column, 'is', null)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Each window with its components and its organization, and what `extra` reads off its row. */
  async function withOrganization<R extends Selectable<MaintenanceTable> & { organization_id: string }, E>(
    rows: R[],
    extra: (row: R) => E,
  ): Promise<({ window: Maintenance; organizationId: string } & E)[]> {
    const windows = await withComponents(db, rows);
    return rows.map((r, i) => ({ window: windows[i] as Maintenance, organizationId: r.organization_id, ...extra(r) }));
  }

  return {
    async listNoticesDue(now, endedSince, limit) {
      const rows = await db
        .selectFrom('maintenance')
        .innerJoin('pages', 'pages.id', 'maintenance.page_id')
        .selectAll('maintenance')
        .select('pages.organization_id')
        .where('maintenance.ended_notice_at', 'is', null)
        .where('maintenance.recurrence', 'is', null)
        .where('maintenance.starts_at', '<=', now)
        .where((eb) =>
          eb.or([
            eb.and([eb('maintenance.started_notice_at', 'is', null), eb('maintenance.ends_at', '>', now)]),
            eb.and([
              eb('maintenance.ends_at', '<=', now),
              eb.or([eb('maintenance.started_notice_at', 'is not', null), eb('maintenance.ends_at', '>=', endedSince)]),
            ]),
          ]),
        )
        .orderBy('maintenance.ends_at')
        .orderBy('maintenance.id')
        .limit(limit)
        .execute();
      return withOrganization(rows, (r) => ({
        startedNoticeAt: r.started_notice_at,
        endedNoticeAt: r.ended_notice_at,
      }));
    },
    markNotice: (id, notice, at) =>
      claim(id, notice === 'started' ? 'started_notice_at' : 'ended_notice_at', at, false),
    async listRecurringDue(now, endedSince, limit, afterId) {
      let query = db
        .selectFrom('maintenance')
        .innerJoin('pages', 'pages.id', 'maintenance.page_id')
        .selectAll('maintenance')
        .select('pages.organization_id')
        .where('maintenance.recurrence', 'is not', null)
        .where('maintenance.starts_at', '<=', now)
        .where('maintenance.ends_at', '>=', endedSince);
      if (afterId !== undefined) query = query.where('maintenance.id', '>', afterId);
      const rows = await query.orderBy('maintenance.id').limit(limit).execute();
      return withOrganization(rows, (r) => ({
        startedOccurrence: r.started_occurrence,
        endedOccurrence: r.ended_occurrence,
      }));
    },
    markOccurrence: (id, notice, occurrenceStart) =>
      claim(id, notice === 'started' ? 'started_occurrence' : 'ended_occurrence', occurrenceStart, true),
  };
}
