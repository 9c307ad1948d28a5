// One-time account links (first-run setup, password reset): kept as hashes, used once, before they expire.
import type { Selectable } from 'kysely';
import type { AccountToken, AccountTokenPurpose } from '../../domain/account.js';
import type { AccountTokensTable, Db } from '../tables.js';
import { consumeToken, deleteExpired, deleteWhere } from './query.js';
import { toColumns } from './rows.js';

const toToken = (r: Selectable<AccountTokensTable>): AccountToken => ({
  hash: r.hash,
  purpose: r.purpose,
  userId: r.user_id,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  usedAt: r.used_at === null ? null : Number(r.used_at),
});

export interface AccountTokenRepository {
  insert(token: AccountToken): Promise<void>;
  /** Marks the unused, unexpired token with this hash and purpose used and returns it; undefined when there is none. */
  use(hash: string, purpose: AccountTokenPurpose, now: number): Promise<AccountToken | undefined>;
  /** Removes the unused tokens of a purpose (a new setup link replaces the previous one). */
  deleteUnused(purpose: AccountTokenPurpose): Promise<void>;
  prune(now: number): Promise<number>;
}

export function accountTokenRepository(db: Db): AccountTokenRepository {
  return {
    async insert(t) {
      await db
        .insertInto('account_tokens')
        .values(toColumns(t, ['hash', 'purpose', 'userId', 'createdAt', 'expiresAt', 'usedAt']))
        .execute();
    },
    async use(hash, purpose, now) {
      const row = await consumeToken(db, 'account_tokens', hash, purpose, now);
      return row && toToken(row);
    },
    async deleteUnused(purpose) {
      await deleteWhere(db, 'account_tokens', { purpose, used_at: null });
    },
    prune: (now) => deleteExpired(db, 'account_tokens', now),
  };
}
