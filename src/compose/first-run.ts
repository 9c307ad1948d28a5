// What a start applies and tells: warden.yaml (or the built-in demo, into an empty database) and, on a first run, the
// one-time setup link of the owner's account.
import { applyConfig, type SyncReport } from '../config/apply.js';
import { DEMO_ORGANIZATION_KEY, demoConfig } from '../config/demo.js';
import type { ConfigFile } from '../config/file-schema.js';
import { generateSecret } from '../domain/tokens.js';
import type { Logger } from '../logger.js';
import { openSetupLink } from '../services/accounts/setup.js';
import type { ServiceContext } from '../services/context.js';
import { listOrganizations } from '../services/organizations/resolve.js';

export interface StartConfig {
  /** What the config file (or the demo) changed; null when neither was applied. */
  syncReport: SyncReport | null;
  /** The demo's heartbeat token when the demo was loaded. */
  demoPushToken: string | null;
}

/**
 * Applies the config file; without one, the demo is loaded into an empty database only: once an organization exists
 * (made by `warden config apply`, say), the server serves what the database holds and leaves it alone.
 */
export async function applyStartConfig(context: ServiceContext, fileConfig: ConfigFile | null, port: number): Promise<StartConfig> {
  if (fileConfig) return { syncReport: await applyConfig(context, fileConfig), demoPushToken: null };
  if (!(await holdsOnlyTheDemo(context))) return { syncReport: null, demoPushToken: null };
  const demoPushToken = generateSecret('pushToken');
  return { syncReport: await applyConfig(context, demoConfig(port, demoPushToken)), demoPushToken };
}

/** Nothing, or the built-in demo alone (one the demo's apply made: a `demo` someone registered is theirs, not re-applied). */
async function holdsOnlyTheDemo(context: ServiceContext): Promise<boolean> {
  return (await listOrganizations(context)).every((organization) => organization.key === DEMO_ORGANIZATION_KEY && organization.managedBy === 'config');
}

/**
 * First run (no account yet): a new one-time setup link, logged this once — the only place its token ever appears.
 * Once any user exists, nothing is logged.
 */
export async function announceSetupLink(context: ServiceContext, logger: Logger): Promise<void> {
  try {
    const setup = await openSetupLink(context);
    if (setup)
      logger.warn(
        `No account exists yet: open ${setup.url} within ${Math.round((setup.expiresAt - context.clock.now()) / 60_000)} minutes to create the owner (or run \`warden users create --role owner\`)`,
      );
  } catch (error) {
    logger.error({ err: error }, 'making the first-run setup link failed');
  }
}

export function logSync(logger: Logger, report: SyncReport, source: string | undefined): void {
  logger.info(
    {
      source,
      organization: report.organization.key,
      created: report.created,
      updated: report.updated,
      deleted: report.deleted,
      unchanged: report.unchanged,
    },
    'configuration applied',
  );
}
