// Recipients of mail through the system SMTP server: per organization and address, a confirmation link (its token's
// hash, when it expires) until the address confirms, and an unsubscribe that is never undone.
import type { Selectable } from 'kysely';
import type { ChannelRecipient } from '../../domain/system-mail.js';
import type { ChannelRecipientsTable, Db } from '../tables.js';
import { countOf } from './count.js';

const toRecipient = (r: Selectable<ChannelRecipientsTable>): ChannelRecipient => ({
  id: r.id,
  organizationId: r.organization_id,
  address: r.address,
  confirmTokenHash: r.confirm_token_hash,
  unsubscribeToken: r.unsubscribe_token,
  confirmedAt: r.confirmed_at,
  unsubscribedAt: r.unsubscribed_at,
  askedAt: r.asked_at,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

export interface ChannelRecipientRepository {
  findById(id: string): Promise<ChannelRecipient | undefined>;
  /** The organization's rows for these (lower-cased) addresses; addresses it has none for are left out. */
  findByAddresses(organizationId: string, addresses: readonly string[]): Promise<ChannelRecipient[]>;
  /**
   * Records a new confirmation link for an address (`link`: the new row's id and unsubscribe token, used when the
   * address has none yet; the token's hash; when it expires), and returns the row, only when the address may be asked
   * now: it has no row yet, or one neither confirmed nor unsubscribed whose last link expired. Otherwise (asked
   * meanwhile by another process, confirmed, unsubscribed) undefined, and nothing changes. Safe to race: one wins.
   */
  ask(
    organizationId: string,
    address: string,
    link: { id: string; unsubscribeToken: string; confirmTokenHash: string; expiresAt: number },
    now: number,
  ): Promise<ChannelRecipient | undefined>;
  /** Takes back a link that could not be mailed (the row's token hash is still `confirmTokenHash`), so the address may be asked again at once. */
  unask(id: string, confirmTokenHash: string): Promise<void>;
  /** Confirms a pending recipient (its link cleared); false when it was not pending (confirmed or unsubscribed already). */
  confirm(id: string, now: number): Promise<boolean>;
  /** The recipient wants nothing more from this organization: unsubscribed, confirmation and link cleared; false when it was already. */
  unsubscribe(id: string, now: number): Promise<boolean>;
  /** The organization's recipients with a live link (not confirmed, not unsubscribed, not expired at `now`). */
  countPending(organizationId: string, now: number): Promise<number>;
  /** Deletes up to `batch` rows never confirmed nor unsubscribed, last asked before `before`; returns how many went. */
  pruneUnconfirmed(before: number, batch: number): Promise<number>;
}

export function recipientRepository(db: Db): ChannelRecipientRepository {
  const rows = () => db.selectFrom('channel_recipients').selectAll();
  const byAddress = async (organizationId: string, address: string) => {
    const row = await rows()
      .where('organization_id', '=', organizationId)
      .where('address', '=', address)
      .executeTakeFirst();
    return row && toRecipient(row);
  };
  return {
    async findById(id) {
      const row = await rows().where('id', '=', id).executeTakeFirst();
      return row && toRecipient(row);
    },
    async findByAddresses(organizationId, addresses) {
      if (addresses.length === 0) return [];
      return (
        await rows()
          .where('organization_id', '=', organizationId)
          .where('address', 'in', [...addresses])
          .orderBy('address')
          .execute()
      ).map(toRecipient);
    },
    async ask(organizationId, address, link, now) {
      const inserted = await db
        .insertInto('channel_recipients')
        .values({
          id: link.id,
          organization_id: organizationId,
          address,
          confirm_token_hash: link.confirmTokenHash,
          unsubscribe_token: link.unsubscribeToken,
          confirmed_at: null,
          unsubscribed_at: null,
          asked_at: now,
          expires_at: link.expiresAt,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['organization_id', 'address']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return byAddress(organizationId, address);
      const renewed = await db
        .updateTable('channel_recipients')
        .set({ confirm_token_hash: link.confirmTokenHash, asked_at: now, expires_at: link.expiresAt })
        .where('organization_id', '=', organizationId)
        .where('address', '=', address)
        .where('confirmed_at', 'is', null)
        .where('unsubscribed_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '<=', now)]))
        .executeTakeFirst();
      return Number(renewed.numUpdatedRows) > 0 ? byAddress(organizationId, address) : undefined;
    },
    async unask(id, confirmTokenHash) {
      await db
        .updateTable('channel_recipients')
        .set({ confirm_token_hash: null, asked_at: null, expires_at: null })
        .where('id', '=', id)
        .where('confirm_token_hash', '=', confirmTokenHash)
        .execute();
    },
    async confirm(id, now) {
      const result = await db
        .updateTable('channel_recipients')
        .set({ confirmed_at: now, confirm_token_hash: null, expires_at: null })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .where('unsubscribed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async unsubscribe(id, now) {
      const result = await db
        .updateTable('channel_recipients')
        .set({ unsubscribed_at: now, confirmed_at: null, confirm_token_hash: null, expires_at: null })
        .where('id', '=', id)
        .where('unsubscribed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    countPending: (organizationId, now) =>
      countOf(
        db
          .selectFrom('channel_recipients')
          .where('organization_id', '=', organizationId)
          .where('confirmed_at', 'is', null)
          .where('unsubscribed_at', 'is', null)
          .where('expires_at', '>', now),
      ),
    async pruneUnconfirmed(before, batch) {
      const result = await db
        .deleteFrom('channel_recipients')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('channel_recipients')
            .select('id')
            .where('confirmed_at', 'is', null)
            .where('unsubscribed_at', 'is', null)
            .where((w) =>
              w.or([w('asked_at', '<', before), w.and([w('asked_at', 'is', null), w('created_at', '<', before)])]),
            )
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
