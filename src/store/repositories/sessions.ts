// Browser sessions: only the SHA-256 of the cookie's token is kept; unused ones end (sliding expiry) and are pruned.
import type { Selectable } from 'kysely';
import type { Session } from '../../domain/account.js';
import type { Db, UserSessionsTable } from '../tables.js';
import { deleteExpired, deleteWhere, updateWhere } from './query.js';
import { toColumns } from './rows.js';

const toSession = (r: Omit<Selectable<UserSessionsTable>, 'hash'>): Session => ({
  id: r.id,
  userId: r.user_id,
  createdAt: Number(r.created_at),
  lastSeenAt: Number(r.last_seen_at),
  expiresAt: Number(r.expires_at),
  userAgent: r.user_agent,
  address: r.address,
  provenAt: r.proven_at === null ? null : Number(r.proven_at),
});

const COLUMNS = [
  'id',
  'user_id',
  'created_at',
  'last_seen_at',
  'expires_at',
  'user_agent',
  'address',
  'proven_at',
] as const;

export interface SessionRepository {
  /** `provenAt` left out: never proven. */
  insert(session: Omit<Session, 'provenAt'> & { hash: string; provenAt?: number | null }): Promise<void>;
  /** Records that the session's user proved it is them at `at` (their password or a code). */
  prove(id: string, at: number): Promise<void>;
  /** The unexpired session with this hash (the caller compares in constant time). */
  findActiveByHash(hash: string, now: number): Promise<(Session & { hash: string }) | undefined>;
  /** Records a use: last seen now, and the end moved to `expiresAt`. */
  touch(id: string, now: number, expiresAt: number): Promise<void>;
  /** The user's unexpired sessions, most recently used first. */
  listByUser(userId: string, now: number): Promise<Session[]>;
  /** False when the user has no such session. */
  delete(userId: string, id: string): Promise<boolean>;
  /** Ends every session of the user but `except` (a password change keeps the one that made it); returns how many. */
  deleteAllOfUser(userId: string, except?: string): Promise<number>;
  /** Ends the least recently used sessions of the user beyond `keep`. */
  trim(userId: string, keep: number): Promise<void>;
  /** Removes expired sessions; returns how many. */
  prune(now: number): Promise<number>;
}

export function sessionRepository(db: Db): SessionRepository {
  return {
    async insert(session) {
      await db
        .insertInto('user_sessions')
        .values({
          ...toColumns(session, [
            'id',
            'userId',
            'hash',
            'createdAt',
            'lastSeenAt',
            'expiresAt',
            'userAgent',
            'address',
          ]),
          proven_at: session.provenAt ?? null,
        })
        .execute();
    },
    async prove(id, at) {
      await updateWhere(db, 'user_sessions', { id }, { proven_at: at });
    },
    async findActiveByHash(hash, now) {
      const row = await db
        .selectFrom('user_sessions')
        .select([...COLUMNS, 'hash'])
        .where('hash', '=', hash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && { ...toSession(row), hash: row.hash };
    },
    async touch(id, now, expiresAt) {
      await updateWhere(db, 'user_sessions', { id }, { last_seen_at: now, expires_at: expiresAt });
    },
    async listByUser(userId, now) {
      const rows = await db
        .selectFrom('user_sessions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toSession);
    },
    delete: async (userId, id) => (await deleteWhere(db, 'user_sessions', { id, user_id: userId })) > 0,
    async deleteAllOfUser(userId, except) {
      let query = db.deleteFrom('user_sessions').where('user_id', '=', userId);
      if (except !== undefined) query = query.where('id', '!=', except);
      return Number((await query.executeTakeFirst()).numDeletedRows);
    },
    async trim(userId, keep) {
      const kept = db
        .selectFrom('user_sessions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id')
        .limit(keep);
      await db.deleteFrom('user_sessions').where('user_id', '=', userId).where('id', 'not in', kept).execute();
    },
    prune: (now) => deleteExpired(db, 'user_sessions', now),
  };
}
