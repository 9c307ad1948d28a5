// A page as the exported file declares it: its fields, components, incidents, maintenance windows and boards.
import type { Board } from '../../domain/board.js';
import type { IncidentUpdate } from '../../domain/incident.js';
import type { Component, Page } from '../../domain/page.js';
import { OPEN_ENDED } from '../../domain/recurrence.js';
import { affectedComponents } from '../components/view.js';
import type { ServiceContext } from '../context.js';
import { pageObjects } from '../organizations/inventory.js';
import type { SecretPath, secretList } from './secrets.js';
import { compact, compareText, isoTime, nonEmpty, nonEmptyObject, unlessDefault } from './written.js';

/** A notify list as the file can give it: only channels that exist. */
export type Named = (keys: readonly string[] | null, what: string) => string[] | undefined;

export async function pageEntry(
  ctx: ServiceContext,
  page: Page,
  monitorKeys: ReadonlyMap<string, string>,
  named: Named,
  path: SecretPath,
  secrets: ReturnType<typeof secretList>,
): Promise<Record<string, unknown>> {
  const { components, incidents, maintenance, boards } = await pageObjects(ctx, page.id);
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
    announceGameChanges: unlessDefault(page.announceGameChanges, false),
    publishUptimeHistory: unlessDefault(page.publishUptimeHistory, false),
    showUnreachable: unlessDefault(page.showUnreachable, false),
    draftIncidents: page.draftIncidents ?? undefined,
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
            monitors: nonEmpty(m.monitorIds.flatMap((id) => monitorKeys.get(id) ?? []).sort(compareText)),
            // Written only when off, the default being on.
            announce: m.announce ? undefined : false,
          }),
        ),
    ),
    boards: nonEmpty(boards.map((b, i) => boardEntry(b, page, componentKeys, [...path, 'boards', i], secrets))),
  });
}

/** A board, its webhook URL a secret like a Discord channel's: the file names an environment variable for it. */
function boardEntry(
  b: Board,
  page: Page,
  componentKeys: ReadonlyMap<string, string>,
  path: SecretPath,
  secrets: ReturnType<typeof secretList>,
): Record<string, unknown> {
  secrets.flag(
    b.webhookUrl,
    [...path, 'webhookUrl'],
    ['BOARD', page.slug, b.key, 'webhookUrl'],
    `board "${b.key}" of page "${page.slug}": webhookUrl`,
  );
  return compact({
    key: b.key,
    kind: unlessDefault(b.kind, 'discord'),
    webhookUrl: b.webhookUrl,
    components: b.componentIds?.flatMap((id) => componentKeys.get(id) ?? []),
    enabled: unlessDefault(b.enabled, true),
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
    join: c.join === 'auto' ? undefined : c.join,
  });
}

/** When a resolved incident without a resolution time of its own is resolved: what `putIncident` derives. */
function derivedResolvedAt(i: {
  status: string;
  startedAt: number;
  updates: readonly IncidentUpdate[];
}): number | null {
  return i.status === 'resolved' ? (i.updates.at(-1)?.at ?? i.startedAt) : null;
}
