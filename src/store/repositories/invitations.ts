// Invitations to organizations: a link's token kept as its hash, used once, until it expires or is revoked.
import type { Selectable } from 'kysely';
import { ACCOUNT_LIMITS, type Invitation } from '../../domain/account.js';
import type { Db, InvitationsTable } from '../tables.js';
import { countOf } from './count.js';
import { findOne, updateWhere } from './query.js';
import { toColumns } from './rows.js';

const toInvitation = (r: Omit<Selectable<InvitationsTable>, 'hash'>): Invitation => ({
  id: r.id,
  organizationId: r.organization_id,
  email: r.email,
  role: r.role,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  acceptedAt: r.accepted_at === null ? null : Number(r.accepted_at),
  acceptedBy: r.accepted_by,
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

export interface InvitationRepository {
  insert(invitation: Invitation & { hash: string }): Promise<void>;
  /** The invitation with this token hash, whatever its state (the caller says why it cannot be used). */
  findByHash(hash: string): Promise<(Invitation & { hash: string }) | undefined>;
  /** The organization's invitations neither accepted nor revoked, expired ones included, newest first. */
  listPending(organizationId: string): Promise<Invitation[]>;
  countPending(organizationId: string, now: number): Promise<number>;
  /** Unexpired invitations addressed to this (lower-cased) email, neither accepted nor revoked, in any organization, newest first. */
  listPendingForEmail(email: string, now: number): Promise<Invitation[]>;
  /** Marks it accepted by the user, only if still pending and unexpired; true when this call did it. */
  accept(id: string, userId: string, now: number): Promise<boolean>;
  /** False when the organization has no such pending invitation. */
  revoke(organizationId: string, id: string, now: number): Promise<boolean>;
}

export function invitationRepository(db: Db): InvitationRepository {
  const pending = (organizationId: string) =>
    db
      .selectFrom('invitations')
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null);
  return {
    async insert(i) {
      await db
        .insertInto('invitations')
        .values({
          ...toColumns(i, ['id', 'organizationId', 'email', 'role', 'hash', 'createdBy', 'createdAt', 'expiresAt']),
          accepted_at: null,
          accepted_by: null,
          revoked_at: null,
        })
        .execute();
    },
    async findByHash(hash) {
      const row = await findOne(db, 'invitations', { hash });
      return row && { ...toInvitation(row), hash: row.hash };
    },
    async listPending(organizationId) {
      return (await pending(organizationId).selectAll().orderBy('created_at', 'desc').orderBy('id').execute()).map(
        toInvitation,
      );
    },
    countPending: (organizationId, now) => countOf(pending(organizationId).where('expires_at', '>', now)),
    async listPendingForEmail(email, now) {
      const rows = await db
        .selectFrom('invitations')
        .selectAll()
        .where('email', '=', email)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(ACCOUNT_LIMITS.organizationsPerUser)
        .execute();
      return rows.map(toInvitation);
    },
    async accept(id, userId, now) {
      const result = await db
        .updateTable('invitations')
        .set({ accepted_at: now, accepted_by: userId })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    revoke: async (organizationId, id, now) =>
      (await updateWhere(
        db,
        'invitations',
        { id, organization_id: organizationId, accepted_at: null, revoked_at: null },
        { revoked_at: now },
      )) > 0,
  };
}
