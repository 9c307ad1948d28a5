// Users: their password hash, second factor, recovery codes (hashes) and OpenID Connect identities.
import type { Selectable } from 'kysely';
import type { StoredUser, User, UserIdentity } from '../../domain/account.js';
import type { Db, UsersTable } from '../tables.js';
import { countOf } from './count.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns, toColumns } from './rows.js';

const toStoredUser = (r: Selectable<UsersTable>): StoredUser => ({
  id: r.id,
  email: r.email,
  name: r.name,
  hasPassword: r.password_hash !== null,
  totpEnabledAt: r.totp_enabled_at === null ? null : Number(r.totp_enabled_at),
  emailVerifiedAt: r.email_verified_at === null ? null : Number(r.email_verified_at),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  passwordHash: r.password_hash,
  totpSecret: r.totp_secret,
});

const toUser = (r: Selectable<UsersTable>): User => {
  const { passwordHash: _p, totpSecret: _t, ...user } = toStoredUser(r);
  return user;
};

export interface UserRepository {
  /** `emailVerifiedAt` left out: not verified. */
  insert(
    user: { id: string; email: string; name: string; passwordHash: string | null; emailVerifiedAt?: number | null },
    now: number,
  ): Promise<void>;
  count(): Promise<number>;
  findById(id: string): Promise<StoredUser | undefined>;
  /** By lower-cased email. */
  findByEmail(email: string): Promise<StoredUser | undefined>;
  /** Users by id (for member lists), in no particular order. */
  listByIds(ids: readonly string[]): Promise<User[]>;
  /** Every user, by email (`warden users list`; the operator's view of a server's accounts). */
  list(): Promise<User[]>;
  update(
    id: string,
    changes: { name?: string; email?: string; passwordHash?: string | null; emailVerifiedAt?: number | null },
    now: number,
  ): Promise<void>;
  /** A pending secret (enabledAt null) or a confirmed one; null turns the second factor off. Either of those forgets the last accepted step. */
  setTotp(id: string, totp: { secret: string; enabledAt: number | null } | null, now: number): Promise<void>;
  /** Replaces every recovery code of the user with these hashes. */
  replaceRecoveryCodes(id: string, hashes: readonly string[]): Promise<void>;
  /** Marks an unused code of the user with this hash used; false when there is none (unknown or used). */
  useRecoveryCode(id: string, hash: string, now: number): Promise<boolean>;
  /**
   * Records `step` as the user's last accepted TOTP time step, atomically, only when it is later than the one before:
   * false when it is not (a code replayed, or a concurrent sign-in with the same code that got there first).
   */
  acceptTotpStep(id: string, step: number): Promise<boolean>;
  unusedRecoveryCodes(id: string): Promise<number>;
  findIdentity(issuer: string, subject: string): Promise<UserIdentity | undefined>;
  linkIdentity(identity: UserIdentity): Promise<void>;
  /** Its memberships go with it; the API keys it made stay (`createdBy` keeps its id): a verb deleting users revokes them first. */
  delete(id: string): Promise<void>;
}

export function userRepository(db: Db): UserRepository {
  return { ...userAccounts(db), ...userProofs(db) };
}

type ProofMethods =
  | 'setTotp'
  | 'acceptTotpStep'
  | 'replaceRecoveryCodes'
  | 'useRecoveryCode'
  | 'unusedRecoveryCodes'
  | 'findIdentity'
  | 'linkIdentity';

const IDENTITY_FIELDS = ['issuer', 'subject', 'userId', 'email'] as const;

/** The users themselves: created, found, listed, changed and deleted. */
function userAccounts(db: Db): Omit<UserRepository, ProofMethods> {
  return {
    async insert(user, now) {
      await db
        .insertInto('users')
        .values({
          ...toColumns(user, ['id', 'email', 'name', 'passwordHash']),
          totp_secret: null,
          totp_enabled_at: null,
          email_verified_at: user.emailVerifiedAt ?? null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    count: () => countOf(db.selectFrom('users')),
    findById: async (id) => mapped(await findOne(db, 'users', { id }), toStoredUser),
    findByEmail: async (email) => mapped(await findOne(db, 'users', { email }), toStoredUser),
    async listByIds(ids) {
      if (ids.length === 0) return [];
      return (
        await db
          .selectFrom('users')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute()
      ).map(toUser);
    },
    async list() {
      return (await db.selectFrom('users').selectAll().orderBy('email').execute()).map(toUser);
    },
    async update(id, changes, now) {
      // Fields left undefined are left as they are.
      const set = toColumns(changes, ['name', 'email', 'passwordHash', 'emailVerifiedAt']);
      await updateWhere(db, 'users', { id }, { ...set, updated_at: now });
    },
    async delete(id) {
      await deleteWhere(db, 'users', { id });
    },
  };
}

/** What a user proves who they are with besides a password: a second factor, recovery codes, OpenID identities. */
function userProofs(db: Db): Pick<UserRepository, ProofMethods> {
  return {
    async setTotp(id, totp, now) {
      const enabledAt = totp?.enabledAt ?? null;
      // A new secret (or none) starts its steps afresh; confirming keeps the step the confirming code was accepted at.
      const set: Partial<UsersTable> = {
        totp_secret: totp?.secret ?? null,
        totp_enabled_at: enabledAt,
        updated_at: now,
      };
      if (enabledAt === null) set.totp_last_step = null;
      await updateWhere(db, 'users', { id }, set);
    },
    async acceptTotpStep(id, step) {
      // One statement decides: two sign-ins racing with the same code cannot both see the older step.
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async replaceRecoveryCodes(id, hashes) {
      await deleteWhere(db, 'user_recovery_codes', { user_id: id });
      if (hashes.length > 0)
        await db
          .insertInto('user_recovery_codes')
          .values(hashes.map((hash) => ({ user_id: id, hash, used_at: null })))
          .execute();
    },
    useRecoveryCode: async (id, hash, now) =>
      (await updateWhere(db, 'user_recovery_codes', { user_id: id, hash, used_at: null }, { used_at: now })) > 0,
    unusedRecoveryCodes: (id) =>
      countOf(db.selectFrom('user_recovery_codes').where('user_id', '=', id).where('used_at', 'is', null)),
    async findIdentity(issuer, subject) {
      const row = await findOne(db, 'user_identities', { issuer, subject });
      return row && { ...fromColumns(row, IDENTITY_FIELDS), createdAt: Number(row.created_at) };
    },
    async linkIdentity(identity) {
      await db
        .insertInto('user_identities')
        .values(toColumns(identity, [...IDENTITY_FIELDS, 'createdAt']))
        .execute();
    },
  };
}
