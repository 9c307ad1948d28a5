// The organization as a warden.yaml document (`warden export`): the inverse of config sync, read through the same
// repositories and views the verbs use. Each secret is flagged with where it sits and the environment variable that
// stands for it, so the file can name the variable instead; what the file cannot carry is listed, never dropped silently.
import type { IncidentUpdate } from '../../domain/incident.js';
import { MONITOR_LIMITS } from '../../domain/limits.js';
import type { Monitor } from '../../domain/monitor.js';
import type { NotificationChannel } from '../../domain/notification.js';
import type { Component, Page } from '../../domain/page.js';
import { OPEN_ENDED } from '../../domain/recurrence.js';
import { type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { probeDefinition } from '../../probes/registry.js';
import { affectedComponents } from '../components/view.js';
import type { ServiceContext } from '../context.js';
import { requireOrganization } from '../organizations/current.js';
import { organizationObjects, pageObjects } from '../organizations/inventory.js';
import { withoutDefaults } from './defaults.js';
import { type ExportedSecret, type SecretPath, secretList } from './secrets.js';

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
  const { relays, monitors, pages, channels } = await organizationObjects(ctx);
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
    relays: nonEmpty(byKey(relays, (r) => r.key).map((r) => ({ key: r.key, name: r.name }))),
    monitors: nonEmpty(sortedMonitors.map((m, i) => monitorEntry(m, relayKeys, named, ['monitors', i], secrets))),
    pages: nonEmpty(
      await Promise.all(sortedPages.map((page, i) => pageEntry(ctx, page, monitorKeys, named, ['pages', i], secrets))),
    ),
    notifications: nonEmpty(
      byKey(channels, (c) => c.key).map((c, i) => channelEntry(c, ['notifications', i], secrets)),
    ),
  });
  notes.push(...(await unexported(ctx, sortedMonitors, relays, sortedPages)));
  return { organization: { key: organization.key, name: organization.name }, file, secrets: secrets.all(), notes };
}

/** A notify list as the file can give it: only channels that exist. */
type Named = (keys: readonly string[] | null, what: string) => string[] | undefined;

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
    notify: named(m.notify, `Monitor ${m.key}`),
    config: withoutDefaults(definition.config, m.config, definition.secrets),
  });
}

async function pageEntry(
  ctx: ServiceContext,
  page: Page,
  monitorKeys: ReadonlyMap<string, string>,
  named: Named,
  path: SecretPath,
  secrets: ReturnType<typeof secretList>,
): Promise<Record<string, unknown>> {
  const { components, incidents, maintenance } = await pageObjects(ctx, page.id);
  // The page's order; a tie (equal `order`) by key, as the file gives each its place by position.
  const ordered = [...components].sort((a, b) => a.order - b.order || compareText(a.key, b.key));
  const componentKeys = new Map(ordered.map((c) => [c.id, c.key]));
  const affected = (ids: readonly string[]) => nonEmpty(affectedComponents(ids, componentKeys).components);
  if (page.passwordHash !== null)
    secrets.unknown(
      [...path, 'password'],
      ['PAGE', page.slug, 'password'],
      `page "${page.slug}": password (stored only as a hash: set it anew)`,
    );
  const b = page.branding;
  return compact({
    slug: page.slug,
    title: page.title,
    description: page.description ?? undefined,
    customDomain: page.customDomain ?? undefined,
    aiPolicy: unlessDefault(page.aiPolicy, 'allow'),
    notify: named(page.notify, `Page ${page.slug}`),
    subscriptions: unlessDefault(page.subscriptions, false),
    showPlayerNames: unlessDefault(page.showPlayerNames, false),
    language: page.language ?? undefined,
    timeZone: unlessDefault(page.timeZone, 'UTC'),
    branding: nonEmptyObject(
      compact({
        accentColor: b.accentColor ?? undefined,
        logoUrl: b.logoUrl ?? undefined,
        faviconUrl: b.faviconUrl ?? undefined,
        links: nonEmpty(b.links.map((l) => ({ label: l.label, url: l.url }))),
        footerText: b.footerText ?? undefined,
        hidePoweredBy: unlessDefault(b.hidePoweredBy, false),
      }),
    ),
    customCss: page.customCss ?? undefined,
    components: nonEmpty(ordered.map((c) => componentEntry(c, monitorKeys))),
    incidents: nonEmpty(
      [...incidents]
        .sort((x, y) => x.startedAt - y.startedAt || compareText(x.key ?? x.id, y.key ?? y.id))
        .map((i) =>
          compact({
            // The API's incidents may have no key; the file names each by one: its id, stable from then on.
            key: i.key ?? i.id,
            title: i.title,
            status: unlessDefault(i.status, 'investigating'),
            impact: unlessDefault(i.impact, 'minor'),
            startedAt: isoTime(i.startedAt),
            resolvedAt:
              i.resolvedAt === null || i.resolvedAt === derivedResolvedAt(i) ? undefined : isoTime(i.resolvedAt),
            components: affected(i.componentIds),
            updates: nonEmpty(i.updates.map((u) => ({ at: isoTime(u.at), status: u.status, message: u.message }))),
          }),
        ),
    ),
    maintenance: nonEmpty(
      [...maintenance]
        .sort((x, y) => x.startsAt - y.startsAt || compareText(x.key ?? x.id, y.key ?? y.id))
        .map((m) =>
          compact({
            key: m.key ?? m.id,
            title: m.title,
            description: m.description ?? undefined,
            startsAt: isoTime(m.startsAt),
            // An open-ended series is written without its end, as it was declared.
            endsAt: m.recurrence !== null && m.endsAt === OPEN_ENDED ? undefined : isoTime(m.endsAt),
            recurrence: m.recurrence ?? undefined,
            components: affected(m.componentIds),
          }),
        ),
    ),
  });
}

function componentEntry(c: Component, monitorKeys: ReadonlyMap<string, string>): Record<string, unknown> {
  return compact({
    // A component's key defaults to its name.
    key: c.key === c.name ? undefined : c.key,
    name: c.name,
    description: c.description ?? undefined,
    group: c.group ?? undefined,
    monitor: c.monitorId === null ? undefined : monitorKeys.get(c.monitorId),
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

/** When a resolved incident without a resolution time of its own is resolved: what `putIncident` derives. */
function derivedResolvedAt(i: {
  status: string;
  startedAt: number;
  updates: readonly IncidentUpdate[];
}): number | null {
  return i.status === 'resolved' ? (i.updates.at(-1)?.at ?? i.startedAt) : null;
}

/** ISO 8601 in UTC, without milliseconds when there are none: what the file's readers write. */
function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function byKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareText(key(a), key(b)));
}

/** Code-point order: the same on every machine, whatever its locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function unlessDefault<T>(value: T, fallback: T): T | undefined {
  return value === fallback ? undefined : value;
}

function nonEmpty<T>(items: readonly T[]): T[] | undefined {
  return items.length > 0 ? [...items] : undefined;
}

function nonEmptyObject(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

/** Leaves out what is undefined: the file omits defaults and absent fields. */
function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

function list(items: readonly string[]): string {
  return items.join(', ');
}
