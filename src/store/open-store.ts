// Opens the store: embedded SQLite by default, PostgreSQL when DATABASE_URL says so, as repositories over one dialect.
import { sql } from 'kysely';
import { type DialectConnection, NoDatabaseError } from './dialects/connection.js';
import { connectPostgres } from './dialects/postgres/connect.js';
import { timePartitionRepository } from './dialects/postgres/time-partitions.js';
import { connectSqlite } from './dialects/sqlite/connect.js';
import { isMigrated, migrateToLatest } from './migrate.js';
import { accountTokenRepository } from './repositories/account-tokens.js';
import { alertRepository } from './repositories/alerts.js';
import { apiKeyRepository } from './repositories/api-keys.js';
import { auditRepository } from './repositories/audit.js';
import { boardRepository } from './repositories/boards.js';
import { changeRepository } from './repositories/changes.js';
import { channelRepository } from './repositories/channels.js';
import { checkRepository } from './repositories/checks.js';
import { clusterRepository } from './repositories/cluster.js';
import { componentRepository } from './repositories/components.js';
import { deliveryRepository } from './repositories/deliveries.js';
import { dependencyRepository } from './repositories/dependencies.js';
import { emailLinkRepository } from './repositories/email-links.js';
import { escalationPolicyRepository } from './repositories/escalation-policies.js';
import { gameChangeRepository } from './repositories/game-changes.js';
import { incidentDraftRepository } from './repositories/incident-drafts.js';
import { incidentRepository } from './repositories/incidents.js';
import { invitationRepository } from './repositories/invitations.js';
import { maintenanceRepository } from './repositories/maintenance.js';
import { membershipRepository } from './repositories/memberships.js';
import { monitorStateRepository } from './repositories/monitor-states.js';
import { monitorRepository } from './repositories/monitors.js';
import { organizationRepository } from './repositories/organizations.js';
import { pageAssetRepository } from './repositories/page-assets.js';
import { pageRepository } from './repositories/pages.js';
import { recipientRepository } from './repositories/recipients.js';
import { relayRepository } from './repositories/relays.js';
import { scheduleRepository } from './repositories/schedule.js';
import { serverSecretRepository } from './repositories/server-secrets.js';
import { sessionRepository } from './repositories/sessions.js';
import { subscriberRepository } from './repositories/subscribers.js';
import { userRepository } from './repositories/users.js';
import type { Store } from './store.js';
import type { Db } from './tables.js';

export interface StoreOptions {
  /** postgres://… selects PostgreSQL; anything else (or nothing) selects SQLite under dataDir. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (created when missing); lets tests and tenants share one database. */
  databaseSchema?: string | undefined;
  dataDir: string;
  /** SQLite's durability: `full` (the default) syncs every commit, `normal` only at checkpoints. */
  sqliteSync?: 'full' | 'normal' | undefined;
  /**
   * Whether a database may be made here (the default): `false` opens only one that was migrated before, else throws
   * NoDatabaseError and leaves nothing behind (no SQLite file or folder, no PostgreSQL schema): a mistyped
   * WARDEN_DATA_DIR must not quietly start an empty database.
   */
  create?: boolean | undefined;
}

export { NoDatabaseError };

export async function openStore(options: StoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  const create = options.create ?? true;
  const connection =
    url && /^postgres(ql)?:\/\//.test(url)
      ? await connectPostgres(url, options.databaseSchema, { create })
      : connectSqlite(options.dataDir, options.sqliteSync ?? 'full', { create });
  if (!create && !(await isMigrated(connection.db))) {
    await connection.db.destroy();
    throw new NoDatabaseError(connection.location);
  }
  return storeOver(connection, connection.db, false);
}

/** The repositories over a connection or one of its transactions. */
function storeOver(connection: DialectConnection, db: Db, inTransaction: boolean): Store {
  const store: Store = {
    dialect: connection.dialect,
    location: connection.location,
    inTransaction,
    organizations: organizationRepository(db),
    apiKeys: apiKeyRepository(db),
    relays: relayRepository(db),
    monitors: monitorRepository(db, connection.dialect),
    dependencies: dependencyRepository(db),
    monitorStates: monitorStateRepository(db, {
      locksRows: connection.locksRows,
      dialect: connection.dialect,
      stateCache: connection.stateCache,
    }),
    schedule: scheduleRepository(db),
    checks: checkRepository(db, connection.writeChecks, connection.checkJournal),
    // Outside a transaction only: its statement commits on its own.
    optimisticIngest: inTransaction ? undefined : connection.optimisticIngest,
    timePartitions: connection.dialect === 'postgres' ? timePartitionRepository(connection.db) : null,
    gameChanges: gameChangeRepository(db),
    pages: pageRepository(db),
    pageAssets: pageAssetRepository(db),
    components: componentRepository(db),
    incidents: incidentRepository(db),
    maintenance: maintenanceRepository(db),
    boards: boardRepository(db),
    incidentDrafts: incidentDraftRepository(db),
    changes: changeRepository(db),
    channels: channelRepository(db),
    deliveries: deliveryRepository(db, connection.claimDeliveries),
    subscribers: subscriberRepository(db),
    recipients: recipientRepository(db),
    cluster: clusterRepository(db, { locksRows: connection.locksRows }),
    users: userRepository(db),
    sessions: sessionRepository(db),
    memberships: membershipRepository(db),
    invitations: invitationRepository(db),
    accountTokens: accountTokenRepository(db),
    emailLinks: emailLinkRepository(db),
    serverSecrets: serverSecretRepository(db),
    audit: auditRepository(db),
    alerts: alertRepository(db),
    escalationPolicies: escalationPolicyRepository(db),
    transaction: (work) =>
      inTransaction ? work(store) : inNewTransaction(connection, db, (trx) => work(storeOver(connection, trx, true))),
    isUniqueViolation: connection.isUniqueViolation,
    exclusive: async (name) => {
      if (!inTransaction) throw new Error('exclusive() holds its lock for a transaction: call it inside one');
      if (connection.locksRows) await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
    },
    migrate: async () => migrateToLatest(connection.db, await connection.migrationSchema()),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolUse: connection.poolUse,
    availability: connection.faults.availability,
    close: async () => {
      // What is journaled goes to `checks` first: a clean stop leaves the journal empty.
      await connection.checkJournal?.close();
      await connection.db.destroy();
      connection.closeFile?.();
    },
  };
  return store;
}

/**
 * A transaction whose failure is the work's own error, translated when it is a fault (SQLite's check writer runs its
 * statements on the handle, past the driver): when the work failed because the database did, rolling back may fail
 * too (SQLite rolls back a SQLITE_FULL commit itself; a dead PostgreSQL connection cannot), and that says nothing new.
 */
async function inNewTransaction<T>(connection: DialectConnection, db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  let failure: { error: unknown } | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      try {
        return await work(trx);
      } catch (error) {
        failure = { error };
        throw error;
      }
    });
  } catch (error) {
    throw connection.faults.translate(failure ? failure.error : error);
  }
}
