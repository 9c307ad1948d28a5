// Who an uptime report is about: the monitors, components and pages asked for (all monitors when none are), each with
// the monitors whose checks it counts and the incidents and maintenance that name it.
import { ValidationError } from '../../domain/errors.js';
import type { Incident, Maintenance } from '../../domain/incident.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Component, Page } from '../../domain/page.js';
import { occurrencesBetween } from '../../domain/recurrence.js';
import type { Span } from '../../domain/uptime-report.js';
import { organizationOf, type ServiceContext } from '../context.js';
import { REPORT_MAX_SUBJECTS } from './uptime-schema.js';

/** Incidents read per page for a report: enough for 400 days of a busy page. */
const INCIDENTS_PER_PAGE = 2000;

export interface ReportSubject {
  type: 'monitor' | 'component' | 'page';
  id: string;
  key: string;
  name: string;
  /** Whose checks it counts (a page pools its components' monitors, each once). */
  monitorIds: string[];
  /** The monitor's interval, for the downtime estimate; null for a page (its days count whole). */
  intervalSec: number | null;
  incidents: (Span & { id: string; title: string })[];
  /** The occurrences of the maintenance windows covering it, in the range. */
  maintenance: Span[];
}

export interface SubjectRefs {
  monitors?: string | undefined;
  components?: string | undefined;
  pages?: string | undefined;
}

const split = (list: string | undefined) =>
  (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** The subjects named (by id or key), in the order monitors, components, pages; unknown ones are a 400 naming the field. */
export async function resolveSubjects(
  ctx: ServiceContext,
  refs: SubjectRefs,
  range: Span,
  now: number,
): Promise<ReportSubject[]> {
  const organizationId = organizationOf(ctx);
  const [monitors, pages, components] = await Promise.all([
    ctx.store.monitors.list(organizationId),
    ctx.store.pages.list(organizationId),
    ctx.store.components.listOfOrganization(organizationId),
  ]);
  const named = { monitors: split(refs.monitors), components: split(refs.components), pages: split(refs.pages) };
  const none = named.monitors.length + named.components.length + named.pages.length === 0;
  const pageById = new Map(pages.map((p) => [p.id, p]));
  const picked = {
    monitors: none
      ? [...monitors].sort((a, b) => (a.key < b.key ? -1 : 1))
      : pick('monitors', named.monitors, monitors),
    components: pick('components', named.components, components, (c) => `${pageById.get(c.pageId)?.slug}/${c.key}`),
    pages: pick('pages', named.pages, pages, (p) => p.slug),
  };
  const count = picked.monitors.length + picked.components.length + picked.pages.length;
  if (count > REPORT_MAX_SUBJECTS) {
    const field = none ? 'monitors' : (['monitors', 'components', 'pages'] as const).find((f) => named[f].length > 0);
    throw new ValidationError([
      {
        path: field ?? 'monitors',
        message: `at most ${REPORT_MAX_SUBJECTS} subjects in one report (this asks for ${count}): name fewer`,
      },
    ]);
  }
  const involved = new Set([
    ...picked.monitors.flatMap((m) => components.filter((c) => c.monitorId === m.id).map((c) => c.pageId)),
    ...picked.components.map((c) => c.pageId),
    ...picked.pages.map((p) => p.id),
  ]);
  const [incidentLists, windows] = await Promise.all([
    Promise.all(
      [...involved].map((id) => ctx.store.incidents.list(id, { since: range.from, limit: INCIDENTS_PER_PAGE })),
    ),
    ctx.store.maintenance.listOfOrganization(organizationId, range.from),
  ]);
  const incidents = incidentLists.flat().filter((i) => i.startedAt < range.to);
  const shape = subjectShaper({ components, monitors, incidents, windows, range, now });
  return [
    ...picked.monitors.map((m) => shape.monitor(m)),
    ...picked.components.map((c) => shape.component(c, pageById.get(c.pageId) as Page)),
    ...picked.pages.map((p) => shape.page(p)),
  ];
}

/** The objects named by id or key (`keyOf`), each once, in the order named; an unknown name is a 400 on `field`. */
function pick<T extends { id: string; key?: string }>(
  field: string,
  names: string[],
  all: readonly T[],
  keyOf: (item: T) => string | undefined = (item) => item.key,
): T[] {
  const out: T[] = [];
  for (const name of names) {
    const found = all.find((item) => item.id === name) ?? all.find((item) => keyOf(item) === name);
    if (!found)
      throw new ValidationError([{ path: field, message: `no ${field.slice(0, -1)} "${name}" in your organization` }]);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

function subjectShaper(data: {
  components: Component[];
  monitors: Monitor[];
  incidents: Incident[];
  windows: Maintenance[];
  range: Span;
  now: number;
}) {
  const { components, incidents, windows, range, now } = data;
  const incidentSpan = (i: Incident) => ({
    id: i.id,
    title: i.title,
    from: i.startedAt,
    to: i.resolvedAt ?? (i.status === 'resolved' ? i.startedAt : now),
  });
  const occurrences = (covering: Maintenance[]) =>
    covering.flatMap((w) =>
      occurrencesBetween(w, range.from, range.to).map((o) => ({ from: o.startsAt, to: o.endsAt })),
    );
  const pageWide = (w: Maintenance) => w.componentIds.length === 0 && w.monitorIds.length === 0;
  const coversComponent = (w: Maintenance, c: Component) =>
    w.componentIds.includes(c.id) ||
    (c.monitorId !== null && w.monitorIds.includes(c.monitorId)) ||
    (pageWide(w) && w.pageId === c.pageId);
  return {
    monitor(m: Monitor): ReportSubject {
      const shown = components.filter((c) => c.monitorId === m.id);
      const ids = new Set(shown.map((c) => c.id));
      return {
        type: 'monitor',
        id: m.id,
        key: m.key,
        name: m.name,
        monitorIds: [m.id],
        intervalSec: m.intervalSec,
        incidents: incidents.filter((i) => i.componentIds.some((id) => ids.has(id))).map(incidentSpan),
        maintenance: occurrences(
          windows.filter((w) => w.monitorIds.includes(m.id) || shown.some((c) => coversComponent(w, c))),
        ),
      };
    },
    component(c: Component, page: Page): ReportSubject {
      const monitor = c.monitorId === null ? undefined : data.monitors.find((m) => m.id === c.monitorId);
      return {
        type: 'component',
        id: c.id,
        key: `${page.slug}/${c.key}`,
        name: c.name,
        monitorIds: monitor ? [monitor.id] : [],
        intervalSec: monitor?.intervalSec ?? null,
        incidents: incidents.filter((i) => i.componentIds.includes(c.id)).map(incidentSpan),
        maintenance: occurrences(windows.filter((w) => coversComponent(w, c))),
      };
    },
    page(p: Page): ReportSubject {
      const monitorIds = new Set(
        components.filter((c) => c.pageId === p.id && c.monitorId !== null).map((c) => c.monitorId as string),
      );
      return {
        type: 'page',
        id: p.id,
        key: p.slug,
        name: p.title,
        monitorIds: [...monitorIds],
        intervalSec: null,
        incidents: incidents.filter((i) => i.pageId === p.id).map(incidentSpan),
        maintenance: occurrences(windows.filter((w) => w.pageId === p.id)),
      };
    },
  };
}
