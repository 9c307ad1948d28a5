// Page subscribers: pending ones (a hashed confirmation token, an expiry) until they confirm, then the outbox's fan-out targets.
import type { Selectable } from 'kysely';
import type { PageSubscriber, SubscriberKind } from '../../domain/subscriber.js';
import type { Db, PageSubscribersTable } from '../tables.js';
import { countOf } from './count.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns, toColumns } from './rows.js';

/** A subscriber's fields, each the column of the same name in snake_case. */
const SUBSCRIBER_FIELDS = [
  'id',
  'organizationId',
  'pageId',
  'kind',
  'format',
  'address',
  'secret',
  'confirmTokenHash',
  'unsubscribeToken',
  'confirmedAt',
  'expiresAt',
  'requestedBy',
  'createdAt',
] as const satisfies readonly (keyof PageSubscriber)[];

const toSubscriber = (r: Selectable<PageSubscribersTable>): PageSubscriber => fromColumns(r, SUBSCRIBER_FIELDS);

export interface SubscriberRepository {
  insert(subscriber: PageSubscriber): Promise<void>;
  findById(id: string): Promise<PageSubscriber | undefined>;
  /** The page's subscriber of this kind at this address (lower-cased email, or URL), confirmed or not. */
  findByAddress(pageId: string, kind: SubscriberKind, address: string): Promise<PageSubscriber | undefined>;
  /** Starts a pending subscription's opt-in over: a new token, a new expiry, asked again now by `requestedBy`. */
  renewPending(
    id: string,
    renewal: { confirmTokenHash: string; expiresAt: number; requestedBy: string | null; createdAt: number },
  ): Promise<void>;
  /** Confirms a pending subscription (token hash and expiry cleared); false when it was not pending any more. */
  confirm(id: string, now: number): Promise<boolean>;
  /** Unsubscribes a confirmed subscriber whose receiver is gone: it gets nothing more, and is deleted after `expiresAt`. */
  lapse(id: string, expiresAt: number): Promise<void>;
  /** A webhook subscriber's new signing secret (its URL answered a new verification). */
  setSecret(id: string, secret: string): Promise<void>;
  /** Deletes the subscriber with its deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** A page's confirmed subscribers, by id: who an incident or maintenance notice goes to. */
  listConfirmed(pageId: string): Promise<PageSubscriber[]>;
  /** A page's subscribers, confirmed or not, by id, after `after` (an id) when given. */
  list(pageId: string, options: { limit: number; after?: string | undefined }): Promise<PageSubscriber[]>;
  counts(pageId: string): Promise<{ confirmed: number; pending: number }>;
  /** Pending subscriptions asked for by this client address (on every page). */
  countPendingRequestedBy(requestedBy: string): Promise<number>;
  /** Deletes up to `batch` unconfirmed subscriptions whose expiry has passed; returns how many went. */
  pruneExpired(now: number, batch: number): Promise<number>;
}

export function subscriberRepository(db: Db): SubscriberRepository {
  const rows = () => db.selectFrom('page_subscribers').selectAll();
  return {
    async insert(s) {
      await db.insertInto('page_subscribers').values(toColumns(s, SUBSCRIBER_FIELDS)).execute();
    },
    findById: async (id) => mapped(await findOne(db, 'page_subscribers', { id }), toSubscriber),
    findByAddress: async (pageId, kind, address) =>
      mapped(await findOne(db, 'page_subscribers', { page_id: pageId, kind, address }), toSubscriber),
    async renewPending(id, renewal) {
      const renewed = toColumns(renewal, ['confirmTokenHash', 'expiresAt', 'requestedBy', 'createdAt']);
      await updateWhere(db, 'page_subscribers', { id, confirmed_at: null }, renewed);
    },
    confirm: async (id, now) =>
      (await updateWhere(
        db,
        'page_subscribers',
        { id, confirmed_at: null },
        { confirmed_at: now, confirm_token_hash: null, expires_at: null },
      )) > 0,
    async lapse(id, expiresAt) {
      await updateWhere(db, 'page_subscribers', { id }, { confirmed_at: null, expires_at: expiresAt });
    },
    async setSecret(id, secret) {
      await updateWhere(db, 'page_subscribers', { id }, { secret });
    },
    delete: async (id) => (await deleteWhere(db, 'page_subscribers', { id })) > 0,
    async listConfirmed(pageId) {
      return (
        await rows().where('page_id', '=', pageId).where('confirmed_at', 'is not', null).orderBy('id').execute()
      ).map(toSubscriber);
    },
    async list(pageId, { limit, after }) {
      let query = rows().where('page_id', '=', pageId);
      if (after !== undefined) query = query.where('id', '>', after);
      return (await query.orderBy('id').limit(limit).execute()).map(toSubscriber);
    },
    async counts(pageId) {
      const of = db.selectFrom('page_subscribers').where('page_id', '=', pageId);
      const [confirmed, pending] = await Promise.all([
        countOf(of.where('confirmed_at', 'is not', null)),
        countOf(of.where('confirmed_at', 'is', null)),
      ]);
      return { confirmed, pending };
    },
    countPendingRequestedBy: (requestedBy) =>
      countOf(
        db.selectFrom('page_subscribers').where('requested_by', '=', requestedBy).where('confirmed_at', 'is', null),
      ),
    async pruneExpired(now, batch) {
      const result = await db
        .deleteFrom('page_subscribers')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('page_subscribers')
            .select('id')
            .where('confirmed_at', 'is', null)
            .where('expires_at', '<', now)
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
