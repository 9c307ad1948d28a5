// What a start applies and tells: warden.yaml (or the built-in demo, into an empty database) and, on a first run, the
// one-time setup code of the owner's account.
import { applyConfig, type SyncReport } from '../config/apply.js';
import { DEMO_ORGANIZATION_KEY, demoConfig } from '../config/demo.js';
import type { ConfigFile } from '../config/file-schema.js';
import { generateSecret } from '../domain/tokens.js';
import type { Logger } from '../logger.js';
import { openSetupCode } from '../services/accounts/setup-code.js';
import type { ServiceContext } from '../services/context.js';
import { listOrganizations } from '../services/organizations/resolve.js';

export interface StartConfig {
  /** What the config file (or the demo) changed; null when neither was applied. */
  syncReport: SyncReport | null;
  /** The demo's heartbeat token when the demo was loaded (active: its pinger runs while this server does). */
  demoPushToken: string | null;
  /** The demo stepped aside this start (paused, off `/`), the operator having an organization of their own. */
  demoRetired: boolean;
}

/**
 * Applies the config file; without one, the demo is loaded (again, with a fresh heartbeat token, on every start) while
 * the database holds nothing else. Once an organization of the operator's exists (made by warden.yaml, `warden config
 * apply`, the first-run setup or the API), the demo is retired: its monitors paused and its page removed, the
 * organization kept until `warden demo remove`.
 */
export async function applyStartConfig(
  context: ServiceContext,
  fileConfig: ConfigFile | null,
  port: number,
): Promise<StartConfig> {
  const syncReport = fileConfig ? await applyConfig(context, fileConfig) : null;
  // A warden.yaml of an organization keyed `demo` is the operator's own: nothing here touches it.
  if (fileConfig?.organization.key === DEMO_ORGANIZATION_KEY)
    return { syncReport, demoPushToken: null, demoRetired: false };
  const demo = await builtInDemo(context);
  if (!fileConfig && demo.onlyOne) {
    const demoPushToken = generateSecret('pushToken');
    return {
      syncReport: await applyConfig(context, demoConfig(port, demoPushToken)),
      demoPushToken,
      demoRetired: false,
    };
  }
  if (demo.present) await applyConfig(context, demoConfig(port, undefined, { retired: true }));
  return { syncReport, demoPushToken: null, demoRetired: demo.present };
}

/**
 * Whether the built-in demo is there (one the demo's apply made: a `demo` someone registered is theirs, left alone),
 * and whether nothing else is (an empty database counts: the demo is loaded into it).
 */
async function builtInDemo(context: ServiceContext): Promise<{ present: boolean; onlyOne: boolean }> {
  const all = await listOrganizations(context);
  const isDemo = (o: (typeof all)[number]) => o.key === DEMO_ORGANIZATION_KEY && o.managedBy === 'config';
  return { present: all.some(isDemo), onlyOne: all.every(isDemo) };
}

/**
 * First run (no account yet): a new setup code, logged this once with where to enter it (the dashboard at /app opens
 * the setup screen by itself). `warden setup-code` prints a new one. Once any user exists, nothing is logged.
 */
export async function announceSetupLink(context: ServiceContext, logger: Logger, baseUrl: string): Promise<void> {
  try {
    const setup = await openSetupCode(context);
    if (setup)
      logger.warn(
        `No account exists yet: open ${baseUrl}/app and enter the setup code ${setup.code} within ${Math.round((setup.expiresAt - context.clock.now()) / 60_000)} minutes to create the owner (\`warden setup-code\` prints a new code; \`warden users create --role owner\` works too)`,
      );
  } catch (error) {
    logger.error({ err: error }, 'making the first-run setup code failed');
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
