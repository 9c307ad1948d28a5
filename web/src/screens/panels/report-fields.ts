// What an apply report shows of each server: the objects it names (monitor, resource monitor, component) as outcomes,
// the error, and any field a newer server adds (`removed`, a restart window…) shown as it comes, so the screen keeps
// up without a change.
import { labelOf } from '../monitor-form/schema-form';

/** The columns every report has, in order, with their headings. */
export const OUTCOME_COLUMNS: readonly { name: string; label: string }[] = [
  { name: 'monitor', label: 'Monitor' },
  { name: 'resourceMonitor', label: 'Resource monitor' },
  { name: 'component', label: 'Component' },
];

const SHOWN = new Set(['identifier', 'name', 'error', ...OUTCOME_COLUMNS.map((c) => c.name)]);

/** The fields of the servers' results no column of the screen knows, in the order first seen, with their headings. */
export function extraColumns(servers: readonly object[]): { name: string; label: string }[] {
  const names: string[] = [];
  for (const server of servers)
    for (const name of Object.keys(server)) if (!SHOWN.has(name) && !names.includes(name)) names.push(name);
  return names.map((name) => ({ name, label: labelOf(name) }));
}

/** Headings of the report's own fields the screen knows; any other is named from its key. */
const REPORT_FIELD_LABELS: Record<string, string> = {
  gone: 'Gone from the panel (left in place)',
  removed: 'Gone from the panel and removed',
};

/** The report's own fields besides `servers` and `truncated` (e.g. what was removed), each with its heading. */
export function extraReportFields(report: object): { name: string; label: string; value: unknown }[] {
  return Object.entries(report)
    .filter(([name]) => name !== 'servers' && name !== 'truncated')
    .map(([name, value]) => ({ name, label: REPORT_FIELD_LABELS[name] ?? labelOf(name), value }));
}

/**
 * An item of a report's list as a line: a server gone from the panel (`gone`, `removed`) as its key, its monitors,
 * component and restart window; anything else as a cell's text.
 */
export function reportItemText(item: unknown): string {
  if (typeof item !== 'object' || item === null || typeof (item as { key?: unknown }).key !== 'string')
    return cellText(item);
  const { key, monitors, component, restarts } = item as Record<string, unknown>;
  const parts = [`monitors ${cellText(monitors)}`, `component ${cellText(component)}`];
  parts.push(`restart window ${cellText(restarts)}`);
  return `${String(key)}: ${parts.join(' · ')}`;
}

/** A value as a cell's text: "—" for none, lists joined, objects as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(cellText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Outcomes in words a reader needs no colour for, and the colour of their badge. */
export const OUTCOME_COLORS: Record<string, string> = {
  created: 'green',
  updated: 'blue',
  unchanged: 'gray',
  skipped: 'yellow',
  removed: 'orange',
  error: 'red',
};

/** Where the game type was read from, as the proposal table says it. */
export function guessedFromText(guessedFrom: string | null): string {
  if (guessedFrom === 'egg') return 'from the egg';
  if (guessedFrom === 'image') return 'from the Docker image';
  if (guessedFrom === 'name') return 'from the server’s name';
  return 'no game recognized: a TCP check';
}

/** The address a proposal's monitor checks, `host:port`, or null when the server has no allocation. */
export function addressOf(config: Record<string, unknown> | undefined): string | null {
  if (!config || typeof config['host'] !== 'string') return null;
  return config['port'] === undefined ? config['host'] : `${config['host']}:${String(config['port'])}`;
}
