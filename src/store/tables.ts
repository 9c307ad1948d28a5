// Row types of every table, one file per area under tables/; the Database interface names each table's row type.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { Kysely } from 'kysely';
import type {
  AccountTokensTable,
  AuditLogTable,
  EmailLinksTable,
  InvitationsTable,
  MembershipsTable,
  ServerSecretsTable,
  UserIdentitiesTable,
  UserRecoveryCodesTable,
  UserSessionsTable,
  UsersTable,
} from './tables/accounts.js';
import type { AlertsTable, EscalationPoliciesTable } from './tables/alerts.js';
import type { PageBoardsTable } from './tables/boards.js';
import type { ChangeCounterTable, ClusterInstancesTable, ClusterLeasesTable } from './tables/cluster.js';
import type {
  ApiKeysTable,
  CheckBucketsTable,
  CheckJournalTable,
  CheckLocationBucketsTable,
  ChecksTable,
  GameChangesTable,
  MonitorStateChangesTable,
  MonitorsTable,
  OrganizationsTable,
  RelaysTable,
} from './tables/monitoring.js';
import type {
  ChannelRecipientsTable,
  NotificationChannelsTable,
  NotificationDeliveriesTable,
} from './tables/notifications.js';
import type {
  ComponentsTable,
  IncidentComponentsTable,
  IncidentDraftsTable,
  IncidentsTable,
  IncidentUpdatesTable,
  MaintenanceComponentsTable,
  MaintenanceMonitorsTable,
  MaintenanceTable,
  PageAssetsTable,
  PageSubscribersTable,
  PagesTable,
} from './tables/pages.js';

export type * from './tables/accounts.js';
export type * from './tables/alerts.js';
export type * from './tables/boards.js';
export type * from './tables/cluster.js';
export type * from './tables/monitoring.js';
export type * from './tables/notifications.js';
export type * from './tables/pages.js';

/** The database a store runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** A connection or a transaction: what every repository runs its queries on. */
export type Db = Kysely<Database>;

export interface Database {
  change_counter: ChangeCounterTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  relays: RelaysTable;
  monitors: MonitorsTable;
  checks: ChecksTable;
  check_journal: CheckJournalTable;
  check_buckets_hourly: CheckBucketsTable;
  check_buckets_daily: CheckBucketsTable;
  check_buckets_location_hourly: CheckLocationBucketsTable;
  game_changes: GameChangesTable;
  pages: PagesTable;
  page_assets: PageAssetsTable;
  components: ComponentsTable;
  incidents: IncidentsTable;
  incident_updates: IncidentUpdatesTable;
  incident_components: IncidentComponentsTable;
  incident_drafts: IncidentDraftsTable;
  maintenance: MaintenanceTable;
  maintenance_components: MaintenanceComponentsTable;
  maintenance_monitors: MaintenanceMonitorsTable;
  notification_channels: NotificationChannelsTable;
  notification_deliveries: NotificationDeliveriesTable;
  page_subscribers: PageSubscribersTable;
  page_boards: PageBoardsTable;
  channel_recipients: ChannelRecipientsTable;
  cluster_instances: ClusterInstancesTable;
  cluster_leases: ClusterLeasesTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_identities: UserIdentitiesTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  account_tokens: AccountTokensTable;
  email_links: EmailLinksTable;
  server_secrets: ServerSecretsTable;
  audit_log: AuditLogTable;
  monitor_state_changes: MonitorStateChangesTable;
  escalation_policies: EscalationPoliciesTable;
  alerts: AlertsTable;
}
