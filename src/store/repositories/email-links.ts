// Links mailed to an address (finishing a sign-up, confirming a new email): kept as hashes, used once, before they expire.
import type { Selectable } from 'kysely';
import type { EmailLink, EmailLinkPurpose } from '../../domain/account.js';
import type { Db, EmailLinksTable } from '../tables.js';
import { consumeToken, deleteExpired, deleteWhere } from './query.js';
import { toColumns } from './rows.js';

const toLink = (r: Selectable<EmailLinksTable>): EmailLink => ({
  hash: r.hash,
  purpose: r.purpose,
  userId: r.user_id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  invitationHash: r.invitation_hash,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  usedAt: r.used_at === null ? null : Number(r.used_at),
});

export interface EmailLinkRepository {
  insert(link: EmailLink): Promise<void>;
  /** Marks the unused, unexpired link with this hash and purpose used and returns it; undefined when there is none. */
  use(hash: string, purpose: EmailLinkPurpose, now: number): Promise<EmailLink | undefined>;
  /** When the user's links made since `since` were made (used or not), oldest first: the hourly cap of email changes. */
  createdForUserSince(userId: string, since: number): Promise<number[]>;
  /** Removes the user's unused links (an address confirmed: the other pending changes are void). */
  deleteUnusedOfUser(userId: string): Promise<void>;
  /** Deletes expired links; returns how many. */
  prune(now: number): Promise<number>;
}

export function emailLinkRepository(db: Db): EmailLinkRepository {
  return {
    async insert(l) {
      await db
        .insertInto('email_links')
        .values(
          toColumns(l, [
            'hash',
            'purpose',
            'userId',
            'email',
            'name',
            'passwordHash',
            'invitationHash',
            'createdAt',
            'expiresAt',
            'usedAt',
          ]),
        )
        .execute();
    },
    async use(hash, purpose, now) {
      const row = await consumeToken(db, 'email_links', hash, purpose, now);
      return row && toLink(row);
    },
    async createdForUserSince(userId, since) {
      const rows = await db
        .selectFrom('email_links')
        .select('created_at')
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => Number(r.created_at));
    },
    async deleteUnusedOfUser(userId) {
      await deleteWhere(db, 'email_links', { user_id: userId, used_at: null });
    },
    prune: (now) => deleteExpired(db, 'email_links', now),
  };
}
