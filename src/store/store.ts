// The storage seam: one repository per aggregate. Services see this interface only; src/store/ holds the one implementation per dialect.

import type { NewAuditEntry } from '../domain/account.js';
import type { StorageFault } from '../domain/errors.js';
import type { Page } from '../domain/page.js';
import type { TimePartitionRepository } from './dialects/postgres/time-partitions.js';
import type { OptimisticIngest } from './optimistic-ingest.js';
import type { AccountTokenRepository } from './repositories/account-tokens.js';
import type { AlertRepository } from './repositories/alerts.js';
import type { ApiKeyRepository } from './repositories/api-keys.js';
import type { AuditRepository } from './repositories/audit.js';
import type { BoardRepository } from './repositories/boards.js';
import type { ChangeRepository } from './repositories/changes.js';
import type { ChannelRepository } from './repositories/channels.js';
import type { CheckRepository } from './repositories/checks.js';
import type { ClusterRepository } from './repositories/cluster.js';
import type { ComponentRepository } from './repositories/components.js';
import type { DeliveryRepository } from './repositories/deliveries.js';
import type { DependencyRepository } from './repositories/dependencies.js';
import type { EmailLinkRepository } from './repositories/email-links.js';
import type { EscalationPolicyRepository } from './repositories/escalation-policies.js';
import type { GameChangeRepository } from './repositories/game-changes.js';
import type { IncidentDraftRepository } from './repositories/incident-drafts.js';
import type { IncidentRepository } from './repositories/incidents.js';
import type { InvitationRepository } from './repositories/invitations.js';
import type { MaintenanceRepository } from './repositories/maintenance.js';
import type { MembershipRepository } from './repositories/memberships.js';
import type { MonitorStateRepository } from './repositories/monitor-states.js';
import type { MonitorRepository } from './repositories/monitors.js';
import type { OrganizationRepository } from './repositories/organizations.js';
import type { PageAssetRepository } from './repositories/page-assets.js';
import type { PageRepository } from './repositories/pages.js';
import type { ChannelRecipientRepository } from './repositories/recipients.js';
import type { RelayRepository } from './repositories/relays.js';
import type { ScheduleRepository } from './repositories/schedule.js';
import type { ServerSecretRepository } from './repositories/server-secrets.js';
import type { SessionRepository } from './repositories/sessions.js';
import type { SubscriberRepository } from './repositories/subscribers.js';
import type { UserRepository } from './repositories/users.js';
import type { Dialect } from './tables.js';

export type { AgeCutoffs, TimePartitionRepository } from './dialects/postgres/time-partitions.js';
// Each repository's interface lives beside its queries, in repositories/<name>.ts, its contract suite in
// test/contracts/store-<name>.contract.test.ts.
export type { AccountTokenRepository } from './repositories/account-tokens.js';
export type { AlertQuery, AlertRepository } from './repositories/alerts.js';
export type { ApiKeyRepository } from './repositories/api-keys.js';
export type { AuditQuery, AuditRepository } from './repositories/audit.js';
export type { ChangeRepository } from './repositories/changes.js';
export type { ChannelRepository } from './repositories/channels.js';
export type { CheckRepository } from './repositories/checks.js';
export type { ClusterInstance, ClusterLease, ClusterRepository } from './repositories/cluster.js';
export type { ComponentRepository } from './repositories/components.js';
export type { DeliveryQuery, DeliveryRepository } from './repositories/deliveries.js';
export type { DependencyRepository } from './repositories/dependencies.js';
export type { EmailLinkRepository } from './repositories/email-links.js';
export type { EscalationPolicyRepository } from './repositories/escalation-policies.js';
export type { GameChangeRepository } from './repositories/game-changes.js';
export type { IncidentRepository } from './repositories/incidents.js';
export type { InvitationRepository } from './repositories/invitations.js';
export type { MaintenanceNoticeDue, MaintenanceRepository, RecurringNoticeDue } from './repositories/maintenance.js';
export type { MembershipRepository } from './repositories/memberships.js';
export type { MonitorListPage, MonitorPosition, MonitorQuery, MonitorSort } from './repositories/monitor-list.js';
export type { MonitorActivity, MonitorStateRepository } from './repositories/monitor-states.js';
export type { MonitorRepository } from './repositories/monitors.js';
export type { OrganizationRepository } from './repositories/organizations.js';
export type { PageAssetRepository } from './repositories/page-assets.js';
export type { PageRepository } from './repositories/pages.js';
export type { ChannelRecipientRepository } from './repositories/recipients.js';
export type { RelayActivity, RelayRepository } from './repositories/relays.js';
export type {
  PushedMonitor,
  ScheduledMonitorRow,
  ScheduleRepository,
  WatchedMonitor,
} from './repositories/schedule.js';
export type { ServerSecretRepository } from './repositories/server-secrets.js';
export type { SessionRepository } from './repositories/sessions.js';
export type { SubscriberRepository } from './repositories/subscribers.js';
export type { UserRepository } from './repositories/users.js';
export type { Dialect };

export interface MigrationReport {
  applied: string[];
  current: string | null;
}

export interface Store {
  readonly dialect: Dialect;
  /** Human description for logs, without credentials. */
  readonly location: string;
  /** True for the store handed to a transaction's callback. */
  readonly inTransaction: boolean;
  readonly organizations: OrganizationRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly relays: RelayRepository;
  /** Monitors: what to check and where, and the lookups of the API, the file and the relays. */
  readonly monitors: MonitorRepository;
  /** Which monitor depends on which (their own parent, or their relay's): what holds alerts back behind a down parent. */
  readonly dependencies: DependencyRepository;
  /** Where each monitor stands (what ingest reads and moves on) and its history of state changes. */
  readonly monitorStates: MonitorStateRepository;
  /** Which enabled monitors run where: what the edge scheduler, the relays and the watchdog read. */
  readonly schedule: ScheduleRepository;
  readonly checks: CheckRepository;
  /** Ingest's one-statement commits (PostgreSQL, outside a transaction); undefined where the store has none. */
  readonly optimisticIngest?: OptimisticIngest | undefined;
  /** PostgreSQL's day partitions of checks and month partitions of hourly buckets (retention drops them); null on SQLite. */
  readonly timePartitions: TimePartitionRepository | null;
  /** The recent game changes (version, map, wipe) of monitors, for the pages that announce them. */
  readonly gameChanges: GameChangeRepository;
  readonly pages: PageRepository;
  /** Images uploaded with a page (its logo and favicon). */
  readonly pageAssets: PageAssetRepository;
  readonly components: ComponentRepository;
  readonly incidents: IncidentRepository;
  readonly maintenance: MaintenanceRepository;
  /** Boards: a message per board kept up to date on Discord, and its pending edit. */
  readonly boards: BoardRepository;
  /** Draft incidents: one per down component and spell, waiting for an operator or published at once. */
  readonly incidentDrafts: IncidentDraftRepository;
  /** The change counter every process polls to see config and API writes made by another. */
  readonly changes: ChangeRepository;
  /** Notification channels: what the API, the CLI and warden.yaml edit, and what the outbox reads. */
  readonly channels: ChannelRepository;
  /** The notification outbox: deliveries enqueued with their change, claimed and settled by the dispatcher. */
  readonly deliveries: DeliveryRepository;
  /** Page subscribers (email and webhook) and their double opt-in. */
  readonly subscribers: SubscriberRepository;
  /** Recipients of mail through the system SMTP server, per organization: their double opt-in and unsubscribes. */
  readonly recipients: ChannelRecipientRepository;
  /** Cluster mode: the processes sharing the database and the leases that share the work out (docs/cluster.md). */
  readonly cluster: ClusterRepository;
  /** Accounts (docs/accounts.md): users, their sessions and identities, memberships, invitations, one-time links. */
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly memberships: MembershipRepository;
  readonly invitations: InvitationRepository;
  readonly accountTokens: AccountTokenRepository;
  /** Links mailed to an address: a sign-up to finish, an email to confirm. */
  readonly emailLinks: EmailLinkRepository;
  /** Secrets of the server itself (the key that signs known-device cookies), made once and shared by every process. */
  readonly serverSecrets: ServerSecretRepository;
  /** Who did what to which object of an organization. */
  readonly audit: AuditRepository;
  /** Alerts: each monitor's open problem, who acknowledged it, how far it escalated (docs/notifications.md). */
  readonly alerts: AlertRepository;
  /** Escalation policies: an organization's ordered steps of channels. */
  readonly escalationPolicies: EscalationPolicyRepository;
  /** Runs `work` in one transaction, on a store bound to it; inside a transaction it joins the one running. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /** Whether a write failed on a unique constraint (e.g. two requests creating the same key at once). */
  isUniqueViolation(error: unknown): boolean;
  /**
   * Inside a transaction: waits until no other transaction (of any process) holds `name`, then holds it until this one
   * ends. PostgreSQL: a transaction-scoped advisory lock; SQLite: nothing to do, it has one writer at a time.
   */
  exclusive(name: string): Promise<void>;
  migrate(): Promise<MigrationReport>;
  ping(): Promise<void>;
  /** PostgreSQL: its connection pool's use now (the metrics read it when scraped); SQLite, one connection in the process: null. */
  poolUse(): DatabasePoolUse | null;
  /**
   * Whether the database stores: an operation that fails for a reason that passes (a StorageFault: full, unreachable,
   * locked) throws StorageUnavailableError (domain/errors.ts) instead of the driver's error, and is told here.
   */
  readonly availability: StorageAvailability;
  close(): Promise<void>;
}

export interface StorageAvailability {
  /** Calls `listener` each time an operation fails for a StorageFault (the driver's error as `cause`); returns the unsubscribe. */
  onFault(listener: (fault: StorageFault, cause: unknown) => void): () => void;
  /** Writes committed since the store was opened (transactions, and writes made outside one): moving again, it stores again. */
  committedWrites(): number;
}

export interface DatabasePoolUse {
  /** Connections open. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

/** The proof of a page's custom domain (see Page). */
export type DomainProof = Pick<Page, 'customDomainToken' | 'customDomainVerifiedAt' | 'customDomainCheckedAt'>;

export type { NewAuditEntry };
