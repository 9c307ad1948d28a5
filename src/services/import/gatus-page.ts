// The status page of a Gatus import: one page for the whole instance, a component per enabled monitor in Gatus's
// groups, its title, description, logo and links from Gatus's ui section.
import { isObject } from './gatus-alerting.js';
import { clip, textOf } from './gatus-values.js';
import type { ImportNote } from './report.js';

/** One page for the whole Gatus instance: a component per enabled monitor, in Gatus's groups. */
export function statusPage(
  slug: string,
  ui: Record<string, unknown>,
  imported: { monitor: Record<string, unknown>; group?: string }[],
  approximated: ImportNote[],
): Record<string, unknown> {
  const shown = imported.filter(({ monitor }) => monitor.enabled !== false);
  const names = new Map<string, number>();
  for (const { monitor } of shown) names.set(String(monitor.name), (names.get(String(monitor.name)) ?? 0) + 1);
  const components = shown.map(({ monitor, group }) => ({
    // Names repeated across groups need a key of their own.
    ...((names.get(String(monitor.name)) ?? 0) > 1 ? { key: monitor.key } : {}),
    name: monitor.name,
    monitor: monitor.key,
    ...(group === undefined ? {} : { group }),
  }));
  const page: Record<string, unknown> = { slug, title: clip(textOf(ui.title) ?? textOf(ui.header) ?? 'Status') };
  const description = textOf(ui.description) ?? textOf(ui['dashboard-subheading']);
  if (description !== undefined) page.description = description.slice(0, 2000);
  const branding: Record<string, unknown> = {};
  if (typeof ui.logo === 'string' && /^https?:\/\//.test(ui.logo)) branding.logoUrl = ui.logo;
  const buttons = list(ui.buttons).filter((b) => typeof b.name === 'string' && typeof b.link === 'string');
  if (buttons.length > 0)
    branding.links = buttons.slice(0, 5).map((b) => ({ label: String(b.name).slice(0, 40), url: b.link }));
  if (buttons.length > 5)
    approximated.push({ item: 'ui.buttons', reason: `a Warden page shows 5 links: ${buttons.length - 5} left out` });
  if (Object.keys(branding).length > 0) page.branding = branding;
  page.components = components;
  return page;
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
