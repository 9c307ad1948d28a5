// Row types of alerts and escalation policies (migration 0025). Times are epoch milliseconds; JSON is stored as text.
import type { ManagedBy } from '../../domain/ownership.js';

export interface EscalationPoliciesTable {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  /** JSON: [{ afterMin, channels: [channel keys] }]. */
  steps: string;
  /** JSON array of monitor keys; null: every monitor. */
  monitors: string | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface AlertsTable {
  id: string;
  organization_id: string;
  monitor_id: string;
  opened_at: number;
  opened_state: 'down' | 'degraded';
  closed_at: number | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  ack_note: string | null;
  policy_id: string | null;
  steps_sent: number;
  /** JSON array of channel keys. */
  step_channels: string;
}
