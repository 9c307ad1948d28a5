// Uptime Kuma's maintenance as Warden's windows on pages: a single window as it is, a manual one running from the
// import, a cron, weekday or day-of-month one as a recurring window (Kuma keeps their cron and duration), an interval
// one reported; each placed on the pages that show it or a monitor it covers, covering Kuma's monitors directly.

import { recurrenceSlotSchema } from '../../domain/recurrence.js';
import type { KumaMaintenanceRow, KumaStatusPageRow } from '../../store/index.js';
import { maintenanceEntrySchema } from '../maintenance/schema.js';
import type { PageContext } from './uptime-kuma-pages.js';
import { isoTime, keyAllocator, optional, slugOf, textOf, zonedInstant } from './uptime-kuma-values.js';

/** A manual maintenance has no end in Kuma; Warden's windows do: it is imported as running from now for this long. */
export const MANUAL_MAINTENANCE_MS = 24 * 3600 * 1000;
type Times = { startsAt?: number | undefined; endsAt?: number | undefined; recurrence?: Slot[] | undefined };
type Slot = { cron: string; timezone: string; durationMin: number };
export type Window = { item: string; row: KumaMaintenanceRow; placed: boolean } & (Times | { skip: string });
/** Kuma's strategies it stores as a cron expression with a duration. */
const CRON_STRATEGIES = new Set(['cron', 'recurring-weekday', 'recurring-day-of-month']);

/** Each maintenance as one window, or why it cannot be one; notes once per maintenance. */
export function maintenanceWindows(ctx: PageContext): Window[] {
  return ctx.data.maintenance.map((row) => {
    const item = `maintenance "${row.title}" (id ${row.id})`;
    const window = windowOf(row, ctx.now);
    if ('skip' in window) {
      ctx.skipped.push({ item, reason: window.skip });
      return { item, row, placed: false, skip: window.skip };
    }
    const { notes, ...times } = window;
    for (const reason of notes) ctx.approximated.push({ item, reason });
    return { item, row, placed: false, ...times };
  });
}

function windowOf(row: KumaMaintenanceRow, now: number): (Times & { notes: string[] }) | { skip: string } {
  if (row.strategy === 'manual') {
    if (!row.active) return { skip: 'a manual maintenance that is not running' };
    return {
      startsAt: now,
      endsAt: now + MANUAL_MAINTENANCE_MS,
      notes: [
        'a manual maintenance has no end in Kuma: imported as running from the import for 24 hours; set its endsAt',
      ],
    };
  }
  if (CRON_STRATEGIES.has(row.strategy) && row.cron && row.duration) return recurringOf(row);
  if (row.strategy !== 'single') {
    const schedule = row.strategy === 'cron' && row.cron ? `cron "${row.cron}"` : row.strategy;
    return {
      skip: `a recurring maintenance (${schedule}) without a cron expression and duration Warden can repeat; add its windows to the page`,
    };
  }
  if (!row.active) return { skip: 'it is paused in Kuma' };
  const { zone, notes } = zoneOf(row);
  const startsAt = row.start_date ? zonedInstant(row.start_date, zone) : undefined;
  const endsAt = row.end_date ? zonedInstant(row.end_date, zone) : undefined;
  if (startsAt === undefined || endsAt === undefined)
    return { skip: `its dates (${row.start_date ?? 'none'} to ${row.end_date ?? 'none'}, ${zone}) are not readable` };
  if (endsAt <= startsAt) return { skip: 'it ends before it starts' };
  return { startsAt, endsAt, notes };
}

function zoneOf(row: KumaMaintenanceRow): { zone: string; notes: string[] } {
  const zone = row.timezone ?? 'UTC';
  if (zone !== 'SAME_AS_SERVER') return { zone, notes: [] };
  return { zone: 'UTC', notes: ["its times were in the Kuma server's zone, read here as UTC: check them"] };
}

/** Kuma's cron and duration (seconds) in its zone, within its date range when it has one (else from the import on). */
function recurringOf(row: KumaMaintenanceRow): (Times & { notes: string[] }) | { skip: string } {
  if (!row.active) return { skip: 'it is paused in Kuma' };
  const { zone, notes } = zoneOf(row);
  const slot = recurrenceSlotSchema.safeParse({
    cron: row.cron,
    timezone: zone,
    durationMin: Math.max(1, Math.round((row.duration ?? 0) / 60)),
  });
  if (!slot.success)
    return { skip: `its schedule (cron "${row.cron}", ${zone}) does not fit: ${slot.error.issues[0]?.message}` };
  const startsAt = row.start_date ? zonedInstant(row.start_date, zone) : undefined;
  const endsAt = row.end_date ? zonedInstant(row.end_date, zone) : undefined;
  if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) return { skip: 'it ends before it starts' };
  return { startsAt, endsAt, recurrence: [slot.data as Slot], notes };
}

/**
 * The windows on this page: those Kuma showed on it, and those covering a monitor it shows. Each covers the monitors
 * Kuma's covered (under maintenance wherever they are shown, as in Kuma); one covering none covers the whole page.
 */
export function pageMaintenance(
  row: KumaStatusPageRow,
  components: Record<string, unknown>[],
  windows: Window[],
  ctx: PageContext,
): Record<string, unknown>[] {
  const keys = keyAllocator();
  const shownMonitors = new Set(components.flatMap((c) => (typeof c.monitor === 'string' ? [c.monitor] : [])));
  const list: Record<string, unknown>[] = [];
  for (const w of windows) {
    if ('skip' in w) continue;
    const monitors = [
      ...new Set(
        ctx.data.maintenanceMonitors.filter((l) => l.left === w.row.id).flatMap((l) => ctx.imported.get(l.right) ?? []),
      ),
    ];
    const shownHere = ctx.data.maintenancePages.some((l) => l.left === w.row.id && l.right === row.id);
    if (!shownHere && !monitors.some((key) => shownMonitors.has(key))) continue;
    const entry = {
      key: keys(slugOf(w.row.title, `maintenance-${w.row.id}`)),
      title: textOf(w.row.title, 300) ?? `Maintenance ${w.row.id}`,
      ...optional('description', textOf(w.row.description, 10_000)),
      ...(w.startsAt === undefined ? {} : { startsAt: isoTime(w.startsAt) }),
      ...(w.endsAt === undefined ? {} : { endsAt: isoTime(w.endsAt) }),
      ...(w.recurrence ? { recurrence: w.recurrence } : {}),
      ...(monitors.length > 0 ? { monitors } : {}),
    };
    if (!maintenanceEntrySchema.safeParse(entry).success) {
      ctx.skipped.push({ item: w.item, reason: 'it does not fit a Warden maintenance window' });
      continue;
    }
    w.placed = true;
    list.push(entry);
  }
  return list;
}
