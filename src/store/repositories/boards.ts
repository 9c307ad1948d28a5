// Boards of a page (store.boards): what the API and warden.yaml edit, and the message's delivery state — the edit
// waiting to go, claimed by one process at a time (a conditional update), so an edit is sent once across processes and
// survives a restart. The keeper (notify/boards/keeper.ts) sets pending edits; the sender (sender.ts) sends them.
import { type Selectable, sql } from 'kysely';
import { BOARD_LIMITS, type Board, type BoardDelivery, type BoardSpec, type ClaimedEdit } from '../../domain/board.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, PageBoardsTable } from '../tables.js';
import { countOf } from './count.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns } from './rows.js';

export interface BoardRepository {
  list(pageId: string): Promise<Board[]>;
  /** Every enabled board not stopped, over all organizations: what the keeper renders. */
  listActive(): Promise<Board[]>;
  count(pageId: string): Promise<number>;
  findById(id: string): Promise<Board | undefined>;
  findByKey(pageId: string, key: string): Promise<Board | undefined>;
  insert(
    board: BoardSpec & { id: string; organizationId: string; pageId: string; managedBy: ManagedBy },
    now: number,
  ): Promise<void>;
  /** Changes it and starts it afresh: a stopped board is tried again, and what it shows is sent again. */
  update(id: string, spec: BoardSpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  delivery(id: string): Promise<BoardDelivery | undefined>;
  /**
   * Records an edit to send unless it is what is pending or shown already: true when it was recorded. It may go at
   * `dueAt`, or at the due time already set if that is earlier.
   */
  setPending(id: string, payload: unknown, hash: string, dueAt: number): Promise<boolean>;
  /** Claims up to `limit` pending edits due at `now` that no process holds: each is this process's for a while. */
  claimDue(now: number, limit: number): Promise<ClaimedEdit[]>;
  /**
   * The edit with hash `sentHash` is shown, in message `messageId`. The pending edit is done unless a newer one came
   * meanwhile, which then waits at least the minimum interval.
   */
  recordShown(id: string, shown: { messageId: string; sentHash: string; at: number }): Promise<void>;
  /** The attempt failed and is tried again at `dueAt`; `messageId` null forgets a message that is gone. */
  recordRetry(id: string, retry: { dueAt: number; attempts: number; error: string; messageId?: null }): Promise<void>;
  /** The receiver refused for good: nothing more is tried until the board is changed. */
  recordStopped(id: string, error: string): Promise<void>;
}

const toBoard = (r: Selectable<PageBoardsTable>): Board => ({
  ...fromColumns(r, ['id', 'organizationId', 'pageId', 'key', 'kind', 'webhookUrl']),
  componentIds: r.component_ids === null ? null : (JSON.parse(r.component_ids) as string[]),
  enabled: r.enabled === 1,
  ...fromColumns(r, ['managedBy', 'createdAt', 'updatedAt']),
});

const toDelivery = (r: Selectable<PageBoardsTable>): BoardDelivery => ({
  ...fromColumns(r, ['messageId', 'shownHash', 'shownAt', 'pendingHash', 'dueAt', 'attempts', 'lastError']),
  stopped: r.stopped === 1,
});

const specColumns = (spec: BoardSpec) => ({
  key: spec.key,
  kind: spec.kind,
  webhook_url: spec.webhookUrl,
  component_ids: spec.componentIds === null ? null : JSON.stringify(spec.componentIds),
  enabled: spec.enabled ? 1 : 0,
});

export function boardRepository(db: Db): BoardRepository {
  const boards = () => db.selectFrom('page_boards').selectAll();
  const row = (id: string) => findOne(db, 'page_boards', { id });
  return {
    async list(pageId) {
      return (await boards().where('page_id', '=', pageId).orderBy('key').execute()).map(toBoard);
    },
    async listActive() {
      return (await boards().where('enabled', '=', 1).where('stopped', '=', 0).orderBy('id').execute()).map(toBoard);
    },
    count: (pageId) => countOf(db.selectFrom('page_boards').where('page_id', '=', pageId)),
    findById: async (id) => mapped(await row(id), toBoard),
    findByKey: async (pageId, key) => mapped(await findOne(db, 'page_boards', { page_id: pageId, key }), toBoard),
    async insert(board, now) {
      await db
        .insertInto('page_boards')
        .values({
          id: board.id,
          organization_id: board.organizationId,
          page_id: board.pageId,
          ...specColumns(board),
          managed_by: board.managedBy,
          created_at: now,
          updated_at: now,
          attempts: 0,
          stopped: 0,
        })
        .execute();
    },
    async update(id, spec, managedBy, now) {
      await updateWhere(
        db,
        'page_boards',
        { id },
        {
          ...specColumns(spec),
          managed_by: managedBy,
          updated_at: now,
          shown_hash: null,
          stopped: 0,
          last_error: null,
          attempts: 0,
        },
      );
    },
    async delete(id) {
      await deleteWhere(db, 'page_boards', { id });
    },
    delivery: async (id) => mapped(await row(id), toDelivery),
    async setPending(id, payload, hash, dueAt) {
      const result = await db
        .updateTable('page_boards')
        .set({
          pending: JSON.stringify(payload),
          pending_hash: hash,
          // Not before the minimum interval since the last edit; an earlier due time already set stays.
          due_at: sql<number>`case when due_at is not null and due_at <= ${dueAt} then due_at
            when shown_at is not null and shown_at + ${BOARD_LIMITS.minEditIntervalMs} > ${dueAt}
              then shown_at + ${BOARD_LIMITS.minEditIntervalMs}
            else ${dueAt} end`,
        })
        .where('id', '=', id)
        .where('stopped', '=', 0)
        .where(sql<boolean>`coalesce(pending_hash, shown_hash, '') <> ${hash}`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async claimDue(now, limit) {
      const free = sql<boolean>`(claimed_until is null or claimed_until < ${now})`;
      const due = await db
        .selectFrom('page_boards')
        .select('id')
        .where('due_at', '<=', now)
        .where('pending', 'is not', null)
        .where('stopped', '=', 0)
        .where('enabled', '=', 1)
        .where(free)
        .orderBy('due_at')
        .limit(limit)
        .execute();
      const claimed: ClaimedEdit[] = [];
      for (const { id } of due) {
        const taken = await db
          .updateTable('page_boards')
          .set({ claimed_until: now + BOARD_LIMITS.claimMs })
          .where('id', '=', id)
          .where('due_at', '<=', now)
          .where(free)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) continue;
        const r = await row(id);
        if (r?.pending && r.pending_hash)
          claimed.push({
            board: toBoard(r),
            delivery: toDelivery(r),
            payload: JSON.parse(r.pending),
            pendingHash: r.pending_hash,
          });
      }
      return claimed;
    },
    async recordShown(id, { messageId, sentHash, at }) {
      const later = at + BOARD_LIMITS.minEditIntervalMs;
      await db
        .updateTable('page_boards')
        .set({
          message_id: messageId,
          shown_hash: sentHash,
          shown_at: at,
          attempts: 0,
          last_error: null,
          claimed_until: null,
          pending: sql<string | null>`case when pending_hash = ${sentHash} then null else pending end`,
          due_at: sql<
            number | null
          >`case when pending_hash = ${sentHash} then null when due_at < ${later} then ${later} else due_at end`,
          pending_hash: sql<string | null>`case when pending_hash = ${sentHash} then null else pending_hash end`,
        })
        .where('id', '=', id)
        .execute();
    },
    async recordRetry(id, { dueAt, attempts, error, messageId }) {
      await updateWhere(
        db,
        'page_boards',
        { id },
        {
          due_at: dueAt,
          attempts,
          last_error: error,
          claimed_until: null,
          ...(messageId === null ? { message_id: null } : {}),
        },
      );
    },
    async recordStopped(id, error) {
      await updateWhere(
        db,
        'page_boards',
        { id },
        { stopped: 1, last_error: error, claimed_until: null, due_at: null },
      );
    },
  };
}
