// Uptime Kuma's status pages as warden.yaml pages: their sections as component groups (a group monitor as its own
// monitors, grouped under its name), their incidents, and the maintenance windows that touch them.
import { counted } from '../../domain/counted.js';
import { LIMITS } from '../../domain/limits.js';
import type { KumaData, KumaIncidentRow, KumaMonitorRow, KumaStatusPageRow } from '../../store/index.js';
import { componentCreateSchema } from '../components/schema.js';
import { incidentEntrySchema } from '../incidents/schema.js';
import { pageEntrySchema } from '../pages/schema.js';
import type { ImportNote } from './report.js';
import { maintenanceWindows, pageMaintenance } from './uptime-kuma-maintenance.js';
import { isoTime, issues, keyAllocator, optional, slugOf, textOf } from './uptime-kuma-values.js';

export interface PageContext {
  data: KumaData;
  /** Kuma monitor id → the key of the Warden monitor made from it (imported ones only). */
  imported: ReadonlyMap<number, string>;
  now: number;
  skipped: ImportNote[];
  approximated: ImportNote[];
}

const DEFAULT_ICON = '/icon.svg';

export function kumaPages(ctx: PageContext): Record<string, unknown>[] {
  const { data } = ctx;
  const byId = new Map(data.monitors.map((m) => [m.id, m]));
  const windows = maintenanceWindows(ctx);
  const slugs = keyAllocator();
  const pages: Record<string, unknown>[] = [];
  for (const row of data.statusPages) {
    const item = `status page "${row.slug}" (id ${row.id})`;
    const slug = slugs(slugOf(row.slug, `page-${row.id}`));
    if (slug !== row.slug)
      ctx.approximated.push({ item, reason: `its slug became "${slug}" (Warden's slugs are a-z, 0-9, "-", "_")` });
    const page: Record<string, unknown> = {
      slug,
      title: textOf(row.title, 200) ?? slug,
      ...optional('description', textOf(row.description, 2000)),
    };
    pageOptions(row, page, ctx, item);
    const components = pageComponents(row, byId, ctx, item);
    const parsed = pageEntrySchema.safeParse(page);
    if (!parsed.success) {
      ctx.skipped.push({ item, reason: `it does not fit Warden: ${issues(parsed.error)}` });
      continue;
    }
    if (components.length > 0) page.components = components;
    const incidents = pageIncidents(row, ctx, item);
    if (incidents.length > 0) page.incidents = incidents;
    const maintenance = pageMaintenance(row, components, windows, ctx);
    if (maintenance.length > 0) page.maintenance = maintenance;
    pages.push(page);
  }
  for (const w of windows)
    if (!w.placed && !('skip' in w))
      ctx.skipped.push({
        item: w.item,
        reason: 'it is on no imported status page, and Warden keeps maintenance on pages',
      });
  return pages;
}

function pageOptions(row: KumaStatusPageRow, page: Record<string, unknown>, ctx: PageContext, item: string): void {
  const domains = ctx.data.customDomains.filter((d) => d.status_page_id === row.id);
  const [domain] = domains;
  if (domain !== undefined) {
    const withDomain = pageEntrySchema.safeParse({ ...page, customDomain: domain.domain.trim().toLowerCase() });
    if (withDomain.success) page.customDomain = domain.domain.trim().toLowerCase();
    else
      ctx.approximated.push({ item, reason: `its domain ${domain.domain} was left out: ${issues(withDomain.error)}` });
    if (domains.length > 1)
      ctx.approximated.push({
        item,
        reason: `Warden serves a page on one domain: ${domains
          .slice(1)
          .map((d) => d.domain)
          .join(', ')} left out`,
      });
  }
  const css = textOf(row.custom_css, 100_000);
  if (css !== undefined) {
    const withCss = pageEntrySchema.safeParse({ ...page, customCss: css });
    if (withCss.success) page.customCss = css;
    else ctx.approximated.push({ item, reason: `its custom CSS was left out: ${issues(withCss.error)}` });
  }
  const lost: string[] = [];
  if (!row.published) lost.push('it was unpublished in Kuma and is public in Warden (add a password, or delete it)');
  if (textOf(row.footer_text, 2000)) lost.push('its footer text is not imported');
  if (row.icon && row.icon !== DEFAULT_ICON)
    lost.push('its logo is not imported (upload it in the dashboard or set branding)');
  if (row.analytics_id) lost.push('its analytics tag is not imported');
  if (row.password) lost.push('its password is not imported (set one with ${ENV})');
  for (const reason of lost) ctx.approximated.push({ item, reason });
}

/** The page's sections in order; a group monitor's leaves go under the group's name. */
function pageComponents(
  row: KumaStatusPageRow,
  byId: Map<number, KumaMonitorRow>,
  ctx: PageContext,
  item: string,
): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  const keys = keyAllocator();
  const seen = new Set<number>();
  const add = (m: KumaMonitorRow, group: string | undefined) => {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    const monitorKey = ctx.imported.get(m.id);
    if (m.type !== 'manual' && monitorKey === undefined) {
      ctx.approximated.push({
        item,
        reason: `monitor "${m.name}" (id ${m.id}) was not imported and is left off the page`,
      });
      return;
    }
    const component: Record<string, unknown> = {
      key: keys(monitorKey ?? slugOf(m.name, `component-${m.id}`)),
      name: textOf(m.name, 200) ?? `Monitor ${m.id}`,
      ...optional('description', textOf(m.description, 2000)),
      ...optional('group', group),
      ...optional('monitor', monitorKey),
    };
    if (m.type === 'manual')
      ctx.approximated.push({
        item,
        reason: `manual monitor "${m.name}" became a component without a monitor (its state follows incidents)`,
      });
    if (components.length >= LIMITS.componentsPerPage)
      ctx.skipped.push({
        item: `${item} component "${m.name}"`,
        reason: `a page holds at most ${LIMITS.componentsPerPage} components`,
      });
    else if (componentCreateSchema.safeParse(component).success) components.push(component);
    else ctx.skipped.push({ item: `${item} component "${m.name}"`, reason: 'it does not fit a Warden component' });
  };
  for (const section of ctx.data.pageGroups.filter((g) => g.status_page_id === row.id)) {
    const sectionName = textOf(section.name, 200);
    for (const link of ctx.data.pageGroupMonitors.filter((l) => l.group_id === section.id)) {
      const m = byId.get(link.monitor_id);
      if (m === undefined) continue;
      if (m.type !== 'group') {
        add(m, sectionName);
        continue;
      }
      const leaves = leavesOf(m, ctx.data.monitors);
      ctx.approximated.push({
        item,
        reason: `group monitor "${m.name}" is shown as its ${counted(leaves.length, 'monitor')} in the component group "${textOf(m.name, 200)}"${sectionName && sectionName !== m.name ? ` (not "${sectionName}")` : ''}`,
      });
      for (const leaf of leaves) add(leaf.monitor, textOf(leaf.group.name, 200));
    }
  }
  return components;
}

/** The monitors under a group monitor, nested groups opened, each with the group that holds it directly. */
export function leavesOf(
  group: KumaMonitorRow,
  all: readonly KumaMonitorRow[],
): { monitor: KumaMonitorRow; group: KumaMonitorRow }[] {
  const leaves: { monitor: KumaMonitorRow; group: KumaMonitorRow }[] = [];
  const visited = new Set<number>();
  const walk = (g: KumaMonitorRow) => {
    if (visited.has(g.id)) return;
    visited.add(g.id);
    for (const child of all.filter((m) => m.parent === g.id)) {
      if (child.type === 'group') walk(child);
      else leaves.push({ monitor: child, group: g });
    }
  };
  walk(group);
  return leaves;
}

/** Kuma's incident is a banner with a style: pinned, it is open; unpinned, it was taken down (resolved). */
function pageIncidents(row: KumaStatusPageRow, ctx: PageContext, item: string): Record<string, unknown>[] {
  const incidents: Record<string, unknown>[] = [];
  for (const incident of ctx.data.incidents.filter((i) => i.status_page_id === row.id)) {
    const entry = incidentEntry(incident, ctx.now);
    const what = `${item} incident "${incident.title}" (id ${incident.id})`;
    const parsed = incidentEntrySchema.safeParse(entry);
    if (!parsed.success) {
      ctx.skipped.push({ item: what, reason: `it does not fit Warden: ${issues(parsed.error)}` });
      continue;
    }
    incidents.push(entry);
    if (entry.status !== 'resolved')
      ctx.approximated.push({
        item: what,
        reason: 'Kuma incidents have no status: imported as investigating; resolve it in Warden when it is over',
      });
  }
  return incidents;
}

const IMPACT = new Map([
  ['danger', 'major'],
  ['warning', 'minor'],
]);

function incidentEntry(incident: KumaIncidentRow, now: number): Record<string, unknown> {
  const startedAt = incident.created_date ?? now;
  const open = incident.pin && incident.active;
  const message = textOf(incident.content, LIMITS.messageChars) ?? incident.title;
  const updates: Record<string, unknown>[] = [{ at: isoTime(startedAt), status: 'investigating', message }];
  const entry: Record<string, unknown> = {
    key: `kuma-incident-${incident.id}`,
    title: textOf(incident.title, 300) ?? `Incident ${incident.id}`,
    status: open ? 'investigating' : 'resolved',
    impact: IMPACT.get(incident.style ?? '') ?? 'none',
    startedAt: isoTime(startedAt),
  };
  if (!open) {
    const resolvedAt = Math.max(startedAt, incident.last_updated_date ?? startedAt);
    entry.resolvedAt = isoTime(resolvedAt);
    updates.push({ at: isoTime(resolvedAt), status: 'resolved', message: 'Taken down in Uptime Kuma.' });
  }
  entry.updates = updates;
  return entry;
}
