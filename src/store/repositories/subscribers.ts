// Page subscribers: pending ones (a hashed confirmation token, an expiry) until they confirm, then the outbox's fan-out targets.
import type { Selectable } from 'kysely';
import type { PageSubscriber, SubscriberKind } from '../../domain/subscriber.js';
import type { Db, PageSubscribersTable } from '../tables.js';
import { countOf } from './count.js';

const toSubscriber = (r: Selectable<PageSubscribersTable>): PageSubscriber => ({
  id: r.id,
  organizationId: r.organization_id,
  pageId: r.page_id,
  kind: r.kind,
  address: r.address,
  secret: r.secret,
  confirmTokenHash: r.confirm_token_hash,
  unsubscribeToken: r.unsubscribe_token,
  confirmedAt: r.confirmed_at,
  expiresAt: r.expires_at,
  requestedBy: r.requested_by,
  createdAt: r.created_at,
});

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
      await db
        .insertInto('page_subscribers')
        .values({
          id: s.id,
          organization_id: s.organizationId,
          page_id: s.pageId,
          kind: s.kind,
          address: s.address,
          secret: s.secret,
          confirm_token_hash: s.confirmTokenHash,
          unsubscribe_token: s.unsubscribeToken,
          confirmed_at: s.confirmedAt,
          expires_at: s.expiresAt,
          requested_by: s.requestedBy,
          created_at: s.createdAt,
        })
        .execute();
    },
    async findById(id) {
      const row = await rows().where('id', '=', id).executeTakeFirst();
      return row && toSubscriber(row);
    },
    async findByAddress(pageId, kind, address) {
      const row = await rows()
        .where('page_id', '=', pageId)
        .where('kind', '=', kind)
        .where('address', '=', address)
        .executeTakeFirst();
      return row && toSubscriber(row);
    },
    async renewPending(id, renewal) {
      await db
        .updateTable('page_subscribers')
        .set({
          confirm_token_hash: renewal.confirmTokenHash,
          expires_at: renewal.expiresAt,
          requested_by: renewal.requestedBy,
          created_at: renewal.createdAt,
        })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .execute();
    },
    async confirm(id, now) {
      const result = await db
        .updateTable('page_subscribers')
        .set({ confirmed_at: now, confirm_token_hash: null, expires_at: null })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setSecret(id, secret) {
      await db.updateTable('page_subscribers').set({ secret }).where('id', '=', id).execute();
    },
    async delete(id) {
      const result = await db.deleteFrom('page_subscribers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
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
