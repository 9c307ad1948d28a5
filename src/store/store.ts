// The storage seam: one repository per aggregate. Services see this interface only; src/store/ holds the one implementation per dialect.

import type {
  AccountToken,
  AccountTokenPurpose,
  AuditEntry,
  EmailLink,
  EmailLinkPurpose,
  Invitation,
  Membership,
  NewAuditEntry,
  Role,
  Session,
  StoredUser,
  User,
  UserIdentity,
} from '../domain/account.js';
import type { PageAsset, PageAssetName, PageAssetType } from '../domain/branding.js';
import type { Bucket, BucketCount, BucketPeriod, BucketSums, CheckRow, StoredCheck } from '../domain/check.js';
import type { StorageFault } from '../domain/errors.js';
import type { Incident, IncidentSpec, IncidentUpdate, Maintenance, MaintenanceSpec } from '../domain/incident.js';
import type { MonitorStateRow, StoredToken } from '../domain/monitor.js';
import type { ApiKey, ApiKeyScope, Organization, Relay } from '../domain/organization.js';
import type { ManagedBy } from '../domain/ownership.js';
import type { Component, ComponentSpec, Page, PageSpec } from '../domain/page.js';
import type { PageSubscriber, SubscriberKind } from '../domain/subscriber.js';
import type { ChannelRecipient } from '../domain/system-mail.js';
import type { ChannelRepository } from './repositories/channels.js';
import type { DeliveryRepository } from './repositories/deliveries.js';
import type { MonitorStateRepository } from './repositories/monitor-states.js';
import type { MonitorRepository } from './repositories/monitors.js';
import type { ScheduleRepository } from './repositories/schedule.js';
import type { Dialect } from './tables.js';

// Repositories whose interface lives beside its queries, in repositories/<name>.ts, its contract suite in
// test/contracts/store-<name>.contract.test.ts.
export type { ChannelRepository } from './repositories/channels.js';
export type { DeliveryQuery, DeliveryRepository } from './repositories/deliveries.js';
export type { MonitorListPage, MonitorPosition, MonitorQuery, MonitorSort } from './repositories/monitor-list.js';
export type { MonitorActivity, MonitorStateRepository } from './repositories/monitor-states.js';
export type { MonitorRepository } from './repositories/monitors.js';
export type { PushedMonitor, ScheduledMonitorRow, ScheduleRepository, WatchedMonitor } from './repositories/schedule.js';
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
  /** Where each monitor stands (what ingest reads and moves on) and its history of state changes. */
  readonly monitorStates: MonitorStateRepository;
  /** Which enabled monitors run where: what the edge scheduler, the relays and the watchdog read. */
  readonly schedule: ScheduleRepository;
  readonly checks: CheckRepository;
  readonly pages: PageRepository;
  /** Images uploaded with a page (its logo and favicon). */
  readonly pageAssets: PageAssetRepository;
  readonly components: ComponentRepository;
  readonly incidents: IncidentRepository;
  readonly maintenance: MaintenanceRepository;
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

export interface OrganizationRepository {
  list(): Promise<Organization[]>;
  findByKey(key: string): Promise<Organization | undefined>;
  /**
   * Creates the organization or renames it and sets its probe-target policy and manager (each left as it is when
   * undefined; a new one gets null and 'api'); returns it and whether anything changed.
   */
  upsert(
    organization: { id: string; key: string; name: string; probePrivateTargets?: 'allow' | 'deny' | null; managedBy?: ManagedBy },
    now: number,
  ): Promise<{ organization: Organization; changed: boolean }>;
  /** Whether any organization but the one with this key exists. */
  anyOtherThan(key: string): Promise<boolean>;
  findById(id: string): Promise<Organization | undefined>;
  /**
   * Deletes the organization and, by the foreign keys' ON DELETE CASCADE, everything it holds (monitors and their
   * history, pages, relays, keys, channels, memberships, invitations, the audit log); false when there was none.
   */
  delete(id: string): Promise<boolean>;
}

export interface ApiKeyRepository {
  /** `createdBy` left out: null (the operator's CLI). */
  insert(key: Omit<ApiKey, 'lastUsedAt' | 'revokedAt' | 'createdBy'> & { hash: string; createdBy?: string | null }): Promise<void>;
  /** Revoked keys included, oldest first. */
  list(organizationId: string): Promise<ApiKey[]>;
  /** The organization's key with this id, revoked or not. */
  find(organizationId: string, id: string): Promise<ApiKey | undefined>;
  /** The active key with this hash, if any; the caller compares in constant time. */
  findActiveByHash(hash: string): Promise<(ApiKey & { hash: string }) | undefined>;
  countActive(organizationId: string): Promise<number>;
  touch(id: string, now: number): Promise<void>;
  /** False when the organization has no such active key. */
  revoke(organizationId: string, id: string, now: number): Promise<boolean>;
  /**
   * Revokes the organization's active keys that `userId` made with one of `scopes` (none given: none revoked) and
   * returns them, revoked at `now`, oldest first; keys already revoked, made by others or of other organizations stay.
   */
  revokeMadeBy(organizationId: string, userId: string, scopes: readonly ApiKeyScope[], now: number): Promise<ApiKey[]>;
}

/** A relay with how often its most frequent monitor runs: what the watchdog needs to tell it is offline. */
export interface RelayActivity {
  id: string;
  lastSeenAt: number | null;
  /** Since when it is known offline (its notice published); null while online. */
  offlineSince: number | null;
  shortestIntervalSec: number;
}

export interface RelayRepository {
  list(organizationId: string): Promise<Relay[]>;
  count(organizationId: string): Promise<number>;
  findById(id: string): Promise<Relay | undefined>;
  findByKey(organizationId: string, key: string): Promise<Relay | undefined>;
  /** With what authentication needs: the hash, and whether the relay is known offline (so its return is told). */
  findByTokenHash(hash: string): Promise<(Relay & { tokenHash: string; offlineSince: number | null }) | undefined>;
  insert(relay: { id: string; organizationId: string; key: string; name: string; managedBy: ManagedBy }, now: number): Promise<void>;
  update(id: string, changes: { name?: string; managedBy?: ManagedBy }, now: number): Promise<void>;
  /** Replaces the relay's token (the old one stops working at once). */
  setToken(id: string, token: StoredToken | null, now: number): Promise<void>;
  /** Secrets set before `before` are withheld from the relay config (a token rotated through the API); null withholds none. */
  withholdSecrets(id: string, before: number | null): Promise<void>;
  touch(id: string, now: number): Promise<void>;
  /**
   * Marks the relay offline since `now`, only if it is not already and was last seen at `lastSeenAt` (a call that came
   * meanwhile wins); true when this call did it, so one process publishes the notice.
   */
  markOffline(id: string, lastSeenAt: number, now: number): Promise<boolean>;
  /** Clears the offline mark set at `offlineSince` and records it seen at `now`; true when this call did it. */
  markBack(id: string, offlineSince: number, now: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Relays that run at least one enabled monitor. */
  listActivity(): Promise<RelayActivity[]>;
}

export interface CheckRepository {
  /** Stores checks (a relay's replayed result id once), adds them to their buckets and writes the monitors' new state, as one batch. */
  write(checks: readonly CheckRow[], states: readonly MonitorStateRow[]): Promise<void>;
  /** `monitorId\u0000resultId` of the results among these ids already stored. */
  storedResultKeys(resultIds: readonly string[]): Promise<Set<string>>;
  /** Checks of a monitor in [from, to), newest first, paginated by (checkedAt, id) cursor. */
  list(monitorId: string, range: { from: number; to: number; limit: number; before?: { checkedAt: number; id: number } | undefined }): Promise<StoredCheck[]>;
  /** Buckets of the monitors starting in [from, to), oldest first. */
  buckets(period: BucketPeriod, monitorIds: readonly string[], from: number, to: number): Promise<Bucket[]>;
  /** Just the counts, unordered: what uptime and the daily strip need, read as cheaply as the store allows. */
  bucketCounts(period: BucketPeriod, monitorIds: readonly string[], from: number, to: number): Promise<BucketCount[]>;
  /** Deletes up to `batch` of one monitor's checks older than `before`; returns how many went. */
  prune(monitorId: string, before: number, batch: number): Promise<number>;
  /** Deletes one monitor's buckets of this period older than `before`. */
  pruneBuckets(period: BucketPeriod, monitorId: string, before: number): Promise<number>;
  /**
   * History brought from another tool (`warden import uptime-kuma --history`): one monitor's buckets of this period that
   * start before `before` are deleted and these written instead, in one transaction, so a second run replaces the first
   * rather than adding to it. `before` is a period start no later than the monitor's own first check.
   */
  replaceBucketsBefore(period: BucketPeriod, monitorId: string, before: number, buckets: readonly BucketSums[]): Promise<void>;
}

export interface PageRepository {
  /** Every page, or an organization's, by slug. */
  list(organizationId?: string): Promise<Page[]>;
  count(organizationId: string): Promise<number>;
  findById(id: string): Promise<Page | undefined>;
  findBySlug(slug: string): Promise<Page | undefined>;
  findByDomain(domain: string): Promise<Page | undefined>;
  insert(page: PageSpec & { id: string; organizationId: string; passwordHash: string | null; managedBy: ManagedBy } & Partial<DomainProof>, now: number): Promise<void>;
  update(id: string, changes: Partial<PageSpec> & { passwordHash?: string | null; managedBy?: ManagedBy } & Partial<DomainProof>, now: number): Promise<void>;
  /**
   * Records a lookup of the page's verification record: `verifiedAt` (null: not proven) and the time checked, only while
   * the page still claims this domain with this token (false otherwise: it changed meanwhile). The page's `updatedAt`
   * moves when the verified state does.
   */
  recordDomainCheck(id: string, claim: { domain: string; token: string }, verifiedAt: number | null, now: number): Promise<boolean>;
  delete(id: string): Promise<void>;
}

export interface PageAssetRepository {
  get(pageId: string, name: PageAssetName): Promise<PageAsset | undefined>;
  /** Name and digest of each of the page's assets, without their bytes (what a snapshot links to). */
  digests(pageId: string): Promise<{ name: PageAssetName; digest: string; contentType: PageAssetType }[]>;
  /** Stores the asset, replacing the one of that name. */
  put(asset: PageAsset): Promise<void>;
  /** False when the page had no asset of that name. */
  delete(pageId: string, name: PageAssetName): Promise<boolean>;
}

/** The proof of a page's custom domain (see Page). */
export type DomainProof = Pick<Page, 'customDomainToken' | 'customDomainVerifiedAt' | 'customDomainCheckedAt'>;

export interface ChangeRepository {
  /**
   * Moves the counter on; called inside the transaction of a write that other processes must see (config, API), so
   * the move commits, or rolls back, with it. Returns the new value.
   */
  bump(): Promise<number>;
  /** The counter's value: one indexed row, cheap enough to poll every second. */
  current(): Promise<number>;
}

export interface ComponentRepository {
  /** A page's components in page order. */
  list(pageId: string): Promise<Component[]>;
  findById(id: string): Promise<Component | undefined>;
  insert(component: ComponentSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void>;
  update(id: string, spec: ComponentSpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Ids of the pages that show this monitor through one of their components. */
  pageIdsShowing(monitorId: string): Promise<string[]>;
  /** Ids of the pages that show any monitor of this relay. */
  pageIdsShowingRelay(relayId: string): Promise<string[]>;
  /** Every (page, monitor) a component links, for the page cache's index. */
  monitorLinks(): Promise<{ pageId: string; monitorId: string }[]>;
  /** Every component on an organization's pages. */
  listOfOrganization(organizationId: string): Promise<Component[]>;
}

export interface IncidentRepository {
  /** A page's incidents, newest first, with updates (oldest first) and affected components; `since` keeps open ones and those resolved since. */
  list(pageId: string, options?: { since?: number; limit?: number }): Promise<Incident[]>;
  count(pageId: string): Promise<number>;
  /** The incidents on an organization's pages, newest first (open ones only, or resolved ones only, when told), at most `limit`. */
  listOfOrganization(organizationId: string, options: { resolved?: boolean; limit: number }): Promise<Incident[]>;
  findById(id: string): Promise<Incident | undefined>;
  findByKey(pageId: string, key: string): Promise<Incident | undefined>;
  /** A new incident with its timeline; `newUpdateId` names each update. */
  insert(incident: IncidentSpec & { id: string; pageId: string; managedBy: ManagedBy }, newUpdateId: () => string, now: number): Promise<void>;
  /** Replaces an incident, its timeline and components included. */
  replace(id: string, spec: IncidentSpec, managedBy: ManagedBy, newUpdateId: () => string, now: number): Promise<void>;
  /** Changes an incident's own fields, leaving its timeline and components as they are. */
  updateFields(id: string, changes: Partial<Pick<Incident, 'title' | 'status' | 'impact' | 'startedAt' | 'resolvedAt'>>, now: number): Promise<void>;
  /** Appends one entry to an incident's timeline. */
  addUpdate(incidentId: string, update: IncidentUpdate): Promise<void>;
  setComponents(id: string, componentIds: readonly string[]): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface MaintenanceRepository {
  /** A page's windows ending at or after `endingAfter` (all when absent), soonest first. */
  list(pageId: string, endingAfter?: number): Promise<Maintenance[]>;
  count(pageId: string): Promise<number>;
  findById(id: string): Promise<Maintenance | undefined>;
  findByKey(pageId: string, key: string): Promise<Maintenance | undefined>;
  insert(window: MaintenanceSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void>;
  update(id: string, spec: MaintenanceSpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** The windows on an organization's pages ending at or after `endingAfter`. */
  listOfOrganization(organizationId: string, endingAfter: number): Promise<Maintenance[]>;
  /**
   * Windows with a notice due at `now`: started (its start came, its end ahead, not told yet) or ended (its end passed,
   * not told yet, and its start was told or it ended at or after `endedSince`). At most `limit`, soonest end first.
   */
  listNoticesDue(now: number, endedSince: number, limit: number): Promise<MaintenanceNoticeDue[]>;
  /** Records that a notice was published, only if it was not yet; true when this call did it (one process tells it). */
  markNotice(id: string, notice: 'started' | 'ended', at: number): Promise<boolean>;
}

/** A window whose notice may be due, with its organization and what was told of it so far. */
export interface MaintenanceNoticeDue {
  window: Maintenance;
  organizationId: string;
  startedNoticeAt: number | null;
  endedNoticeAt: number | null;
}

export interface SubscriberRepository {
  insert(subscriber: PageSubscriber): Promise<void>;
  findById(id: string): Promise<PageSubscriber | undefined>;
  /** The page's subscriber of this kind at this address (lower-cased email, or URL), confirmed or not. */
  findByAddress(pageId: string, kind: SubscriberKind, address: string): Promise<PageSubscriber | undefined>;
  /** Starts a pending subscription's opt-in over: a new token, a new expiry, asked again now by `requestedBy`. */
  renewPending(id: string, renewal: { confirmTokenHash: string; expiresAt: number; requestedBy: string | null; createdAt: number }): Promise<void>;
  /** Confirms a pending subscription (token hash and expiry cleared); false when it was not pending any more. */
  confirm(id: string, now: number): Promise<boolean>;
  /** A webhook subscriber's new signing secret (its URL answered a new verification). */
  setSecret(id: string, secret: string): Promise<void>;
  /** Deletes the subscriber with its deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** A page's confirmed subscribers, by id: who an incident or maintenance notice goes to. */
  listConfirmed(pageId: string): Promise<PageSubscriber[]>;
  /** A page's subscribers, confirmed or not, by id, after `after` (an id) when given. */
  list(pageId: string, options: { limit: number; after?: string | undefined }): Promise<PageSubscriber[]>;
  counts(pageId: string): Promise<{ confirmed: number; pending: number }>;
  /** Pending subscriptions asked for by this client address (on every page). */
  countPendingRequestedBy(requestedBy: string): Promise<number>;
  /** Deletes up to `batch` unconfirmed subscriptions whose expiry has passed; returns how many went. */
  pruneExpired(now: number, batch: number): Promise<number>;
}

export interface ChannelRecipientRepository {
  findById(id: string): Promise<ChannelRecipient | undefined>;
  /** The organization's rows for these (lower-cased) addresses; addresses it has none for are left out. */
  findByAddresses(organizationId: string, addresses: readonly string[]): Promise<ChannelRecipient[]>;
  /**
   * Records a new confirmation link for an address (`link`: the new row's id and unsubscribe token, used when the
   * address has none yet; the token's hash; when it expires), and returns the row, only when the address may be asked
   * now: it has no row yet, or one neither confirmed nor unsubscribed whose last link expired. Otherwise (asked
   * meanwhile by another process, confirmed, unsubscribed) undefined, and nothing changes. Safe to race: one wins.
   */
  ask(
    organizationId: string,
    address: string,
    link: { id: string; unsubscribeToken: string; confirmTokenHash: string; expiresAt: number },
    now: number,
  ): Promise<ChannelRecipient | undefined>;
  /** Takes back a link that could not be mailed (the row's token hash is still `confirmTokenHash`), so the address may be asked again at once. */
  unask(id: string, confirmTokenHash: string): Promise<void>;
  /** Confirms a pending recipient (its link cleared); false when it was not pending (confirmed or unsubscribed already). */
  confirm(id: string, now: number): Promise<boolean>;
  /** The recipient wants nothing more from this organization: unsubscribed, confirmation and link cleared; false when it was already. */
  unsubscribe(id: string, now: number): Promise<boolean>;
  /** The organization's recipients with a live link (not confirmed, not unsubscribed, not expired at `now`). */
  countPending(organizationId: string, now: number): Promise<number>;
  /** Deletes up to `batch` rows never confirmed nor unsubscribed, last asked before `before`; returns how many went. */
  pruneUnconfirmed(before: number, batch: number): Promise<number>;
}

/** A process of the cluster as its last heartbeat left it. */
export interface ClusterInstance {
  id: string;
  startedAt: number;
  seenAt: number;
  /** What it told of itself: version, address. */
  info: Record<string, unknown>;
}

/** A lease: held by `holder` until `expiresAt` unless renewed; free when the holder is null. */
export interface ClusterLease {
  name: string;
  holder: string | null;
  expiresAt: number;
  acquiredAt: number | null;
}

export interface ClusterRepository {
  /** Records the instance alive at `now` (inserted on its first heartbeat, its start and info replaced on each). */
  heartbeat(instance: { id: string; startedAt: number; info: Record<string, unknown> }, now: number): Promise<void>;
  /** Instances seen after `seenAfter`, by id. */
  listInstances(seenAfter: number): Promise<ClusterInstance[]>;
  /** Deletes an instance's row: a graceful stop, so peers count it gone at once. */
  removeInstance(id: string): Promise<void>;
  /** Deletes instances not seen since `seenBefore` (restarted processes come back under new ids); returns how many. */
  forgetInstances(seenBefore: number): Promise<number>;
  /** Inserts the leases missing among these names, free. */
  ensureLeases(names: readonly string[]): Promise<void>;
  /**
   * Takes up to `limit` of these leases that are free or lapsed (expired at or before `now`) for `holder` until
   * `now + ttlMs`, and returns their names. Two instances never take the same lease (PostgreSQL: FOR UPDATE SKIP
   * LOCKED, so they pass over each other's rows instead of waiting; SQLite: one write statement).
   */
  acquire(holder: string, candidates: readonly string[], limit: number, ttlMs: number, now: number): Promise<string[]>;
  /** Extends the leases among `names` still held by `holder` to `now + ttlMs`; returns those (one missing was taken by another). */
  renew(holder: string, names: readonly string[], ttlMs: number, now: number): Promise<string[]>;
  /** Frees the leases among `names` held by `holder`; returns how many. */
  release(holder: string, names: readonly string[]): Promise<number>;
  /** Every lease, by name. */
  listLeases(): Promise<ClusterLease[]>;
}

export interface UserRepository {
  /** `emailVerifiedAt` left out: not verified. */
  insert(user: { id: string; email: string; name: string; passwordHash: string | null; emailVerifiedAt?: number | null }, now: number): Promise<void>;
  count(): Promise<number>;
  findById(id: string): Promise<StoredUser | undefined>;
  /** By lower-cased email. */
  findByEmail(email: string): Promise<StoredUser | undefined>;
  /** Users by id (for member lists), in no particular order. */
  listByIds(ids: readonly string[]): Promise<User[]>;
  /** Every user, by email (`warden users list`; the operator's view of a server's accounts). */
  list(): Promise<User[]>;
  update(id: string, changes: { name?: string; email?: string; passwordHash?: string | null; emailVerifiedAt?: number | null }, now: number): Promise<void>;
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

export interface MembershipRepository {
  /** Creates or changes the member's role. */
  put(membership: Membership): Promise<void>;
  find(organizationId: string, userId: string): Promise<Membership | undefined>;
  listByOrganization(organizationId: string): Promise<Membership[]>;
  /** The user's memberships with their organizations, by organization name. */
  listByUser(userId: string): Promise<(Membership & { organization: Organization })[]>;
  countByRole(organizationId: string, role: Role): Promise<number>;
  /** False when there was no such member. */
  delete(organizationId: string, userId: string): Promise<boolean>;
}

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

export interface AccountTokenRepository {
  insert(token: AccountToken): Promise<void>;
  /** Marks the unused, unexpired token with this hash and purpose used and returns it; undefined when there is none. */
  use(hash: string, purpose: AccountTokenPurpose, now: number): Promise<AccountToken | undefined>;
  /** Removes the unused tokens of a purpose (a new setup link replaces the previous one). */
  deleteUnused(purpose: AccountTokenPurpose): Promise<void>;
  prune(now: number): Promise<number>;
}

export interface EmailLinkRepository {
  insert(link: EmailLink): Promise<void>;
  /** Marks the unused, unexpired link with this hash and purpose used and returns it; undefined when there is none. */
  use(hash: string, purpose: EmailLinkPurpose, now: number): Promise<EmailLink | undefined>;
  /** When the user's links made since `since` were made (used or not), oldest first: the hourly cap of email changes. */
  createdForUserSince(userId: string, since: number): Promise<number[]>;
  /** Removes the user's unused links (an address confirmed: the other pending changes are void). */
  deleteUnusedOfUser(userId: string): Promise<void>;
  /** Deletes expired links; returns how many. */
  prune(now: number): Promise<number>;
}

export interface ServerSecretRepository {
  /**
   * The secret named `name`, made with `make` and stored the first time it is asked for. Two processes asking at once
   * both get the one stored first.
   */
  getOrCreate(name: string, make: () => string, now: number): Promise<string>;
}

export interface AuditQuery {
  organizationId: string;
  /** Entries older than this cursor (the `at` and `id` of the last entry of the previous page). */
  before?: { at: number; id: string } | undefined;
  limit: number;
  actorId?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
}

export interface AuditRepository {
  append(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEntry[]>;
  /** Removes entries older than `before`; returns how many. */
  prune(before: number): Promise<number>;
}

export type { NewAuditEntry };
