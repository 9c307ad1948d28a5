// Row types of the boards (migration 0018): a message kept up to date on a chat service, and its pending edit.
import type { ManagedBy } from '../../domain/ownership.js';

export interface PageBoardsTable {
  id: string;
  organization_id: string;
  page_id: string;
  key: string;
  kind: 'discord';
  /** A secret: never in a view, a log or an export unredacted. */
  webhook_url: string;
  /** JSON array of component ids; null: every component of the page. */
  component_ids: string | null;
  enabled: number;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
  message_id: string | null;
  shown_hash: string | null;
  shown_at: number | null;
  /** The edit waiting to go (JSON payload), its hash, when it may go, attempts and a process's claim on it. */
  pending: string | null;
  pending_hash: string | null;
  due_at: number | null;
  attempts: number;
  claimed_until: number | null;
  last_error: string | null;
  /** 1: the receiver refused for good (webhook deleted, token wrong); nothing is sent until the board is changed. */
  stopped: number;
}
