// Row types: accounts: users, sessions and their proofs, memberships, invitations, the audit log.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { AccountTokenPurpose, EmailLinkPurpose, Role } from '../../domain/account.js';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The TOTP time step last accepted (replay protection); null before the first. */
  totp_last_step: number | null;
  email_verified_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  address: string | null;
  proven_at: number | null;
}

export interface UserRecoveryCodesTable {
  user_id: string;
  hash: string;
  used_at: number | null;
}

export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: number;
}

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: number;
}

export interface InvitationsTable {
  id: string;
  organization_id: string;
  email: string | null;
  role: Role;
  hash: string;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface AccountTokensTable {
  hash: string;
  purpose: AccountTokenPurpose;
  user_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface EmailLinksTable {
  hash: string;
  purpose: EmailLinkPurpose;
  user_id: string | null;
  email: string;
  name: string | null;
  password_hash: string | null;
  invitation_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface AuditLogTable {
  id: string;
  organization_id: string;
  at: number;
  actor_kind: 'user' | 'apiKey' | 'system';
  actor_id: string;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string | null;
  object_label: string | null;
  detail: string | null;
}
