// Gatus's maintenance as recurring windows on the imported page: the instance-wide `maintenance` page-wide, an
// endpoint's `maintenance-windows` covering its component. Gatus's start ("23:00"), duration ("1h"), weekdays (`every`,
// none meaning daily) and timezone (UTC unless set) become one weekly or daily RRULE slot.
import { recurrenceSlotSchema } from '../../domain/recurrence.js';
import { isObject } from './gatus-alerting.js';
import { goDurationMs } from './gatus-values.js';

const DAYS: Record<string, string> = {
  monday: 'MO',
  tuesday: 'TU',
  wednesday: 'WE',
  thursday: 'TH',
  friday: 'FR',
  saturday: 'SA',
  sunday: 'SU',
};

export type GatusSlot = { rrule: string; timezone: string; durationMin: number };

/** One Gatus maintenance object as a slot; null when disabled; or why it does not fit. */
export function gatusSlot(value: unknown): GatusSlot | null | { skip: string } {
  if (!isObject(value)) return { skip: 'it is not a maintenance object' };
  if (value.enabled === false) return null;
  const start = typeof value.start === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(value.start.trim()) : null;
  if (!start) return { skip: 'its start is not a time such as 23:00' };
  const durationMs = goDurationMs(value.duration);
  if (!durationMs) return { skip: 'it has no duration such as 1h' };
  const every = Array.isArray(value.every) ? value.every.map((d) => DAYS[String(d).toLowerCase()]) : [];
  if (every.some((d) => d === undefined)) return { skip: 'its `every` names a day that is not a weekday' };
  const at = `BYHOUR=${Number(start[1])};BYMINUTE=${Number(start[2])}`;
  const slot = recurrenceSlotSchema.safeParse({
    rrule: every.length > 0 ? `FREQ=WEEKLY;BYDAY=${every.join(',')};${at}` : `FREQ=DAILY;${at}`,
    timezone: typeof value.timezone === 'string' && value.timezone !== '' ? value.timezone : 'UTC',
    durationMin: Math.max(1, Math.round(durationMs / 60_000)),
  });
  if (!slot.success) {
    const issue = slot.error.issues[0];
    return { skip: `${issue?.path.join('.') ?? 'it'}: ${issue?.message ?? 'does not fit'}` };
  }
  return slot.data as GatusSlot;
}

/** A maintenance object found in the configuration; `monitor`: the key of the endpoint's monitor, for its windows. */
export interface GatusMaintenance {
  value: unknown;
  item: string;
  monitor?: string;
}

/** The page's windows: page-wide for the instance's, covering the endpoint's component for an endpoint's. */
export function maintenanceWindows(
  found: GatusMaintenance[],
  page: Record<string, unknown>,
  skipped: { item: string; reason: string }[],
): Record<string, unknown>[] {
  const components = (Array.isArray(page.components) ? page.components : []) as {
    key?: string;
    name: string;
    monitor: string;
  }[];
  const windows: Record<string, unknown>[] = [];
  for (const { value, item, monitor } of found) {
    const slot = gatusSlot(value);
    if (slot === null) continue;
    if ('skip' in slot) {
      skipped.push({ item, reason: slot.skip });
      continue;
    }
    const component = monitor === undefined ? undefined : components.find((c) => c.monitor === monitor);
    if (monitor !== undefined && component === undefined) {
      skipped.push({ item, reason: 'its endpoint is not on the page (disabled)' });
      continue;
    }
    windows.push({
      key: `maintenance-${windows.length + 1}`,
      title: component ? `Maintenance of ${component.name}` : 'Maintenance',
      recurrence: [slot],
      components: component ? [component.key ?? component.name] : [],
    });
  }
  return windows;
}
