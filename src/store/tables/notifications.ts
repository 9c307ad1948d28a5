// Row types: notification channels, their recipients and the delivery queue.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { ManagedBy } from '../../domain/ownership.js';

export interface NotificationChannelsTable {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  type: string;
  /** JSON, checked by the channel type's schema before it is written. */
  config: string;
  /** JSON: { events?: kinds[], monitors?: keys[] } (all when absent). */
  rules: string;
  enabled: number;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface NotificationDeliveriesTable {
  id: string;
  /** The event's stable id (the receiver's dedupe key); one delivery per event and channel. */
  event_id: string;
  /** The channel it goes to, or null for a page subscriber's (exactly one of the two is set). */
  channel_id: string | null;
  subscriber_id: string | null;
  organization_id: string;
  monitor_id: string | null;
  kind: string;
  /** JSON of the NotificationEvent as it is sent. */
  event: string;
  status: 'pending' | 'sending' | 'sent' | 'dead' | 'skipped';
  attempts: number;
  next_attempt_at: number;
  /** While sending: when the claim lapses and another sender may take it (a crashed sender's). */
  claimed_until: number | null;
  last_error: string | null;
  last_status: number | null;
  last_answer: string | null;
  created_at: number;
  sent_at: number | null;
}

/** An address of an organization's channels on the system SMTP server: its double opt-in, or its unsubscribe. */
export interface ChannelRecipientsTable {
  id: string;
  organization_id: string;
  /** Lower-cased. */
  address: string;
  /** SHA-256 (hex) of the last confirmation link's token; null when none is live. */
  confirm_token_hash: string | null;
  unsubscribe_token: string;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  asked_at: number | null;
  expires_at: number | null;
  created_at: number;
}
