// The CLI's composition root: the verbs' context over the same store the server uses (WARDEN_DATA_DIR or DATABASE_URL),
// migrated, for one command; and how commands print. A command finds an existing database or refuses: only those
// that set one up (migrate, config apply) pass `create: true`, so a mistyped WARDEN_DATA_DIR never starts an empty one.

import { createInProcessBus } from '../bus/bus.js';
import { readSettings, type Settings } from '../config/settings.js';
import { systemClock } from '../domain/clock.js';
import { createLogger } from '../logger.js';
import { createNotificationOutbox } from '../notify/outbox/outbox.js';
import type { ServiceContext } from '../services/context.js';
import { resolveOrganization } from '../services/organizations/resolve.js';
import { NoDatabaseError, openStore } from '../store/open-store.js';

export async function withServices<T>(
  run: (ctx: ServiceContext) => Promise<T>,
  { migrate = true, create = false } = {},
): Promise<T> {
  const settings = readSettings();
  const store = await openStore({ ...settings, create }).catch((error: unknown) => {
    throw error instanceof NoDatabaseError ? new Error(noDatabaseMessage(error, settings)) : error;
  });
  try {
    if (migrate) await store.migrate();
    // Nothing in a CLI process listens to events: the server notices changes by its periodic reloads.
    // baseUrl: the service's own host, which no page may claim as its custom domain (WARDEN_BASE_URL).
    // notify: an incident posted from the command line (`warden config apply`) alerts like one from the API: its deliveries
    // are written in the same transaction, and the server's dispatcher sends them at its next poll.
    const bus = createInProcessBus();
    const notify = createNotificationOutbox({
      bus,
      clock: systemClock,
      baseUrl: () => (settings.baseUrl ?? `http://localhost:${settings.port}`).replace(/\/+$/, ''),
    });
    try {
      return await run({
        store,
        bus,
        clock: systemClock,
        logger: createLogger(settings.logLevel, undefined, { format: settings.logFormat }),
        baseUrl: settings.baseUrl,
        notify,
      });
    } finally {
      notify.close();
    }
  } finally {
    await store.close();
  }
}

/** The same, acting for the organization named by --org (or the only one there is), as the CLI (what its audit entries name). */
export async function withOrganization<T>(
  org: string | undefined,
  run: (ctx: ServiceContext, organization: { id: string; key: string }) => Promise<T>,
): Promise<T> {
  return withServices(async (ctx) => {
    const organization = await resolveOrganization(ctx, org === undefined ? {} : { key: org });
    return run({ ...ctx, organizationId: organization.id, actor: { kind: 'system', name: 'cli' } }, organization);
  });
}

/** What to do when the database the settings name is not there, naming the variable that chose it. */
function noDatabaseMessage(error: NoDatabaseError, settings: Settings): string {
  const setUp = 'run `warden serve` or `warden migrate` first';
  if (!error.location.startsWith('sqlite:'))
    return `no Warden database at ${error.location} (DATABASE_URL${settings.databaseSchema ? ', DATABASE_SCHEMA' : ''}: no Warden tables there); ${setUp}, or set DATABASE_URL`;
  return `no Warden database at ${error.location.replace(/^sqlite:/, '')} (WARDEN_DATA_DIR: ${settings.dataDir}); ${setUp}, or set WARDEN_DATA_DIR`;
}

/** Writes a table to standard output, columns aligned. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}

export function formatTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// `warden backup` and `warden restore` handle SQLite database files without opening a store: the server may be running
// on the one backed up, and a restore installs the file a store will open.
export { backupSqliteDatabase, restoreSqliteDatabase } from '../store/dialects/sqlite/files.js';
