// `warden import uptime-kuma`: an Uptime Kuma database (1.23 or 2.x) as a warden.yaml: monitors of the types Warden
// has, tags and group monitors as tags, status pages with their sections as components, incidents, one-off maintenance
// and simple notification channels; everything else is reported (docs/import.md, "Uptime Kuma").
import { counted } from '../../domain/counted.js';
import type { KumaData, KumaMonitorRow } from '../../store/index.js';
import { monitorEntrySchema } from '../monitors/schema.js';
import type { ImportNote, ImportReport } from './report.js';
import { kumaChannels } from './uptime-kuma-channels.js';
import { type GamedigLookup, kumaMonitorEntry } from './uptime-kuma-monitors.js';
import { kumaPages } from './uptime-kuma-pages.js';
import { issues, keyAllocator, slugOf, tagOf } from './uptime-kuma-values.js';

export type { GamedigGame, GamedigLookup } from './uptime-kuma-monitors.js';

export interface KumaImportOptions {
  /** The time of the import: a running manual maintenance starts then. */
  now: number;
  /** GameDig's games, to run the ones Warden speaks natively as its own types (loadGamedigGames()). */
  games: GamedigLookup;
  /** The organization the file declares; key `default` and name "Uptime Kuma" when absent. */
  organization?: { key?: string | undefined; name?: string | undefined };
}

/** The relay that runs the GameDig monitors, declared in the file when there is one. */
export const KUMA_RELAY_KEY = 'gamedig';

export function importUptimeKuma(data: KumaData, options: KumaImportOptions): ImportReport {
  const skipped: ImportNote[] = [];
  const approximated: ImportNote[] = [];
  const keys = kumaMonitorKeys(data);
  const tags = monitorTags(data, approximated);
  const imported = new Map<number, string>();
  const monitors: Record<string, unknown>[] = [];
  let onRelay = false;
  for (const row of data.monitors) {
    const item = monitorItem(row);
    const key = keys.get(row.id)!;
    if (row.type === 'group') {
      approximated.push({ item, reason: groupNote(row, data.monitors) });
      continue;
    }
    if (row.type === 'manual') {
      skipped.push({
        item,
        reason: 'a manual monitor checks nothing: it is a component without a monitor on the pages that list it',
      });
      continue;
    }
    const mapping = kumaMonitorEntry(
      row,
      key,
      tags.get(row.id) ?? [],
      options.games,
      KUMA_RELAY_KEY,
      data.dockerHosts ?? [],
    );
    if ('skip' in mapping) {
      skipped.push({ item, reason: mapping.skip });
      continue;
    }
    const parsed = monitorEntrySchema.safeParse(mapping.entry);
    if (!parsed.success) {
      skipped.push({ item, reason: `it does not fit Warden: ${issues(parsed.error)}` });
      continue;
    }
    monitors.push(mapping.entry);
    imported.set(row.id, key);
    onRelay ||= mapping.onRelay;
    for (const reason of mapping.notes) approximated.push({ item, reason });
  }
  const pages = kumaPages({ data, imported, now: options.now, skipped, approximated });
  const notifications = kumaChannels({ data, imported, skipped, approximated });
  const file: Record<string, unknown> = {
    organization: { key: options.organization?.key ?? 'default', name: options.organization?.name ?? 'Uptime Kuma' },
    ...(onRelay ? { relays: [{ key: KUMA_RELAY_KEY, name: 'GameDig relay (imported from Uptime Kuma)' }] } : {}),
    monitors,
    pages,
    ...(notifications.length > 0 ? { notifications } : {}),
  };
  return { file, skipped, approximated };
}

/**
 * The key of the Warden monitor made from each Kuma monitor: its name as a slug, made unique in the order of Kuma's
 * ids. `--history` finds the monitors by these keys, so it derives them the same way from the same database.
 */
export function kumaMonitorKeys(data: Pick<KumaData, 'monitors'>): Map<number, string> {
  const allocate = keyAllocator();
  const keys = new Map<number, string>();
  for (const row of [...data.monitors].sort((a, b) => a.id - b.id))
    keys.set(row.id, allocate(slugOf(row.name ?? '', `monitor-${row.id}`)));
  return keys;
}

export function monitorItem(row: Pick<KumaMonitorRow, 'id' | 'name' | 'type'>): string {
  return `${row.type === 'group' ? 'group' : 'monitor'} "${row.name}" (id ${row.id})`;
}

/** Kuma's tags ("env: prod" → env-prod), and the groups a monitor is in (as the group's name). */
function monitorTags(data: KumaData, approximated: ImportNote[]): Map<number, string[]> {
  const byId = new Map(data.monitors.map((m) => [m.id, m]));
  const tags = new Map<number, string[]>();
  const add = (id: number, tag: string) => {
    const list = tags.get(id) ?? [];
    if (!list.includes(tag)) list.push(tag);
    tags.set(id, list);
  };
  for (const row of data.tags) {
    const tag = tagOf(row.name, row.value);
    if (tag !== undefined) add(row.monitor_id, tag);
    else
      approximated.push({
        item: `tag "${row.name}" of monitor id ${row.monitor_id}`,
        reason: 'nothing of it fits a Warden tag (a-z, 0-9, ".", "_", "-")',
      });
  }
  for (const row of data.monitors) {
    const seen = new Set<number>();
    for (
      let parent = row.parent === null ? undefined : byId.get(row.parent);
      parent !== undefined && !seen.has(parent.id);
    ) {
      seen.add(parent.id);
      const tag = tagOf(parent.name, null);
      if (tag !== undefined) add(row.id, tag);
      parent = parent.parent === null ? undefined : byId.get(parent.parent);
    }
  }
  return tags;
}

function groupNote(group: KumaMonitorRow, all: readonly KumaMonitorRow[]): string {
  const children = all.filter((m) => m.parent === group.id).length;
  const tag = tagOf(group.name, null);
  return `Warden has no group monitors: its ${counted(children, 'monitor')} ${children === 1 ? 'carries' : 'carry'} the tag ${tag ?? '(none fits)'}, and pages that list the group show them as the component group "${group.name}"`;
}
