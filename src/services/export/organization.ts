// The organization as a warden.yaml document (`warden export`): the inverse of config sync, read through the same
// repositories and views the verbs use. Each secret is flagged with where it sits and the environment variable that
// stands for it, so the file can name the variable instead; what the file cannot carry is listed, never dropped silently.
import { MONITOR_LIMITS } from '../../domain/limits.js';
import type { Monitor } from '../../domain/monitor.js';
import type { NotificationChannel } from '../../domain/notification.js';
import type { Page } from '../../domain/page.js';
import { type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { probeDefinition } from '../../probes/registry.js';
import type { ServiceContext } from '../context.js';
import { locationKey } from '../monitors/locations-view.js';
import { requireOrganization } from '../organizations/current.js';
import { organizationObjects } from '../organizations/inventory.js';
import { withoutDefaults } from './defaults.js';
import { policyEntries } from './escalation.js';
import { type Named, pageEntry } from './page.js';
import { type ExportedSecret, type SecretPath, secretList } from './secrets.js';
import { byKey, compact, list, nonEmpty, nonEmptyObject, unlessDefault } from './written.js';

export type { ExportedSecret } from './secrets.js';

export interface OrganizationExport {
  organization: { key: string; name: string };
  /**
   * The config file's input shape (what `validateConfig` reads), secrets in full: the writer replaces each of
   * `secrets` by its variable before anything leaves the process.
   */
  file: Record<string, unknown>;
  secrets: ExportedSecret[];
  /** What the file cannot carry or carries differently, one sentence each. */
  notes: string[];
}

export async function exportOrganization(ctx: ServiceContext): Promise<OrganizationExport> {
  const organization = await requireOrganization(ctx);
  const { relays, monitors, pages, channels, policies } = await organizationObjects(ctx);
  const secrets = secretList();
  const notes: string[] = [];
  // A channel deleted through the API stays named in what named it (and is ignored there): the file cannot name it.
  const channelKeys = new Set(channels.map((c) => c.key));
  const named = (keys: readonly string[] | null, what: string) => {
    const gone = (keys ?? []).filter((key) => !channelKeys.has(key));
    if (gone.length > 0)
      notes.push(`${what} names deleted notification channel(s) ${list(gone)}: left out of its notify.`);
    return nonEmpty((keys ?? []).filter((key) => channelKeys.has(key)));
  };
  const relayKeys = new Map(relays.map((r) => [r.id, r.key]));
  const monitorKeys = new Map(monitors.map((m) => [m.id, m.key]));

  const sortedMonitors = byKey(monitors, (m) => m.key);
  const sortedPages = byKey(pages, (p) => p.slug);
  const file = compact({
    organization: compact({
      key: organization.key,
      name: organization.name,
      probePrivateTargets: organization.probePrivateTargets ?? undefined,
    }),
    relays: nonEmpty(
      byKey(relays, (r) => r.key).map((r) =>
        compact({ key: r.key, name: r.name, dependsOn: r.dependsOn ?? undefined }),
      ),
    ),
    monitors: nonEmpty(sortedMonitors.map((m, i) => monitorEntry(m, relayKeys, named, ['monitors', i], secrets))),
    // One page after the other: each registers its secrets as it goes, and the file's header lists them in order.
    pages: nonEmpty(
      await inOrder(sortedPages, (page, i) => pageEntry(ctx, page, monitorKeys, named, ['pages', i], secrets)),
    ),
    notifications: nonEmpty(
      byKey(channels, (c) => c.key).map((c, i) => channelEntry(c, ['notifications', i], secrets)),
    ),
    escalationPolicies: policyEntries(policies, channelKeys, new Set(monitors.map((m) => m.key)), notes),
  });
  notes.push(...(await unexported(ctx, sortedMonitors, relays, sortedPages)));
  return { organization: { key: organization.key, name: organization.name }, file, secrets: secrets.all(), notes };
}

function monitorEntry(
  m: Monitor,
  relayKeys: ReadonlyMap<string, string>,
  named: Named,
  path: SecretPath,
  secrets: ReturnType<typeof secretList>,
): Record<string, unknown> {
  const definition = probeDefinition(m.type);
  for (const field of definition.secrets)
    secrets.flag(
      m.config[field],
      [...path, 'config', field],
      ['MONITOR', m.key, field],
      `monitor "${m.key}": config.${field}`,
    );
  return compact({
    key: m.key,
    name: m.name,
    type: m.type,
    runOn: m.runOn === definition.runsOn[0] ? undefined : m.runOn,
    relay: m.relayId === null ? undefined : relayKeys.get(m.relayId),
    intervalSec: unlessDefault(m.intervalSec, MONITOR_LIMITS.intervalSec.default),
    timeoutMs: unlessDefault(m.timeoutMs, MONITOR_LIMITS.timeoutMs.default),
    retries: unlessDefault(m.retries, MONITOR_LIMITS.retries.default),
    degradedLatencyMs: m.degradedLatencyMs ?? undefined,
    enabled: unlessDefault(m.enabled, true),
    tags: nonEmpty(m.tags),
    playerAlerts: m.playerAlerts ?? undefined,
    expectedRestart: m.expectedRestart ?? undefined,
    dependsOn: m.dependsOn ?? undefined,
    locations: m.locations === null ? undefined : m.locations.map((l) => locationKey(l, relayKeys)),
    quorum: m.quorum ?? undefined,
    notify: named(m.notify, `Monitor ${m.key}`),
    config: withoutDefaults(definition.config, m.config, definition.secrets),
  });
}

function channelEntry(
  c: NotificationChannel,
  path: SecretPath,
  secrets: ReturnType<typeof secretList>,
): Record<string, unknown> {
  const definition = channelDefinition(c.type as ChannelType);
  for (const field of definition.secrets)
    secrets.flag(
      c.config[field],
      [...path, 'config', field],
      ['NOTIFY', c.key, field],
      `notification channel "${c.key}": config.${field}`,
    );
  return compact({
    key: c.key,
    name: c.name,
    type: c.type,
    config: withoutDefaults(definition.config, c.config, definition.secrets),
    rules: nonEmptyObject(c.rules as Record<string, unknown>),
    enabled: unlessDefault(c.enabled, true),
  });
}

/** What applying the file elsewhere will not reproduce. */
async function unexported(
  ctx: ServiceContext,
  monitors: readonly Monitor[],
  relays: readonly { key: string }[],
  pages: readonly Page[],
): Promise<string[]> {
  const out: string[] = [];
  const pushed = monitors.filter((m) => m.runOn === 'push').map((m) => m.key);
  if (pushed.length > 0)
    out.push(
      `Push tokens are stored only as hashes: the push monitors (${list(pushed)}) get new tokens when this file is applied, and \`warden monitors token KEY\` issues one to see; update what pushes to them.`,
    );
  if (relays.length > 0)
    out.push(
      `Relay tokens are stored only as hashes: after applying, run \`warden relays token KEY\` for ${list(relays.map((r) => r.key))} and give each relay its new token.`,
    );
  for (const page of pages) {
    const assets = await ctx.store.pageAssets.digests(page.id);
    if (assets.length > 0)
      out.push(
        `Page ${page.slug}: the uploaded ${list(assets.map((a) => a.name))} image(s) are not in this file; upload them again.`,
      );
    if (page.customDomain !== null && page.customDomainVerifiedAt === null)
      out.push(
        `Page ${page.slug}: ${page.customDomain} was not verified here yet; a custom domain in warden.yaml is the operator's and serves at once.`,
      );
  }
  return out;
}

async function inOrder<T, R>(items: readonly T[], work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const [i, item] of items.entries()) out.push(await work(item, i));
  return out;
}
