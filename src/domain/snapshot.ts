// The snapshot of a status page: the one value every public form of the page (JSON, Markdown, HTML, RSS, badge…) renders.
import type { MonitorState } from './monitor-type.js';

/** The page vocabulary, for components and the page as a whole. */
export type PageState = 'operational' | 'degraded' | 'down' | 'maintenance' | 'unknown';

export type IncidentStatus = 'investigating' | 'identified' | 'monitoring' | 'resolved';
export type IncidentImpact = 'none' | 'minor' | 'major' | 'critical';

export interface SnapshotPage {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  /** Absolute URL of the HTML page. */
  url: string;
  customDomain: string | null;
}

/** Share of passing checks in a window, 0..1, or null when there were no checks. */
export interface UptimeWindows {
  '24h': number | null;
  '7d': number | null;
  '30d': number | null;
  '90d': number | null;
}

export interface DailyBar {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  uptime: number | null;
  /** The worst the component was that day (see docs/states.md); unknown when there were no checks. */
  state: PageState;
  checks: number;
}

/** What the monitor last reported, where it gives it. */
export interface LiveData {
  checkedAt: number | null;
  latencyMs: number | null;
  players: number | null;
  maxPlayers: number | null;
  version: string | null;
  motd: string | null;
  message: string | null;
}

export interface SnapshotComponent {
  id: string;
  name: string;
  description: string | null;
  group: string | null;
  state: PageState;
  /** The monitor's own state, or null for a component without a monitor. */
  monitorState: MonitorState | null;
  /** Since when the monitor has been in its state. */
  since: number | null;
  uptime: UptimeWindows;
  /** 90 UTC days, oldest first, ending today. */
  days: DailyBar[];
  live: LiveData | null;
}

export interface SnapshotIncidentUpdate {
  id: string;
  status: IncidentStatus;
  message: string;
  at: number;
}

export interface SnapshotIncident {
  id: string;
  title: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  startedAt: number;
  resolvedAt: number | null;
  /** Ids and names of the affected components. */
  components: { id: string; name: string }[];
  /** Oldest first. */
  updates: SnapshotIncidentUpdate[];
}

export interface SnapshotMaintenance {
  id: string;
  title: string;
  description: string | null;
  startsAt: number;
  endsAt: number;
  status: 'scheduled' | 'in_progress';
  components: { id: string; name: string }[];
}

export interface Snapshot {
  page: SnapshotPage;
  overall: { state: PageState; label: string };
  components: SnapshotComponent[];
  activeIncidents: SnapshotIncident[];
  /** Resolved incidents of the last 14 days, newest first. */
  recentIncidents: SnapshotIncident[];
  maintenance: { active: SnapshotMaintenance[]; upcoming: SnapshotMaintenance[] };
  totals: { players: number | null; maxPlayers: number | null };
  generatedAt: number;
}
