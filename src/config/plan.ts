// What applying warden.yaml would do, per key: create, update (make it match) or delete. Pure: it compares the file with
// the organization's inventory, and each step names the verb that carries it out.
import type { Held, Inventory } from '../services/organizations/inventory.js';
import type { ConfigFile } from './file-schema.js';

export type PlanKind =
  | 'relay'
  | 'monitor'
  | 'page'
  | 'component'
  | 'incident'
  | 'maintenance'
  | 'board'
  | 'notification'
  | 'escalation';

interface StepBase {
  kind: PlanKind;
  /** How reports name the object: "monitor lobby", "component acme/lobby". */
  label: string;
}

/** Create or update: the verb puts the file's entry (the object with its key is created, or made to match). */
export interface PutStep<K extends PlanKind = PlanKind> extends StepBase {
  action: 'create' | 'update';
  kind: K;
  /** Where the file declares it: `monitors[2]`, `pages[0].components[1]`. */
  path: string;
  entry: PutEntry[K];
}

/** An object the file manages and no longer lists: deleted, with its history. */
export interface DeleteStep extends StepBase {
  action: 'delete';
  id: string;
  key: string;
  /** The page a component, incident, window or board is on. */
  page?: { id: string; slug: string };
}

export type PlanStep = { [K in PlanKind]: PutStep<K> }[PlanKind] | DeleteStep;

type PageEntry = ConfigFile['pages'][number];
export interface PutEntry {
  relay: ConfigFile['relays'][number];
  monitor: ConfigFile['monitors'][number];
  page: Omit<PageEntry, 'components' | 'incidents' | 'maintenance' | 'boards'>;
  component: PageEntry['components'][number] & { slug: string; order: number };
  incident: PageEntry['incidents'][number] & { slug: string };
  maintenance: PageEntry['maintenance'][number] & { slug: string };
  board: PageEntry['boards'][number] & { slug: string };
  notification: ConfigFile['notifications'][number];
  escalation: ConfigFile['escalationPolicies'][number];
}

/**
 * The steps in the order they can run: notification channels first (stale ones deleted first), since monitors and
 * pages name them, and escalation policies right after them (their steps name channels); relays before the monitors
 * that use them; stale monitors deleted before new ones are created (the
 * caps count what exists), stale relays after monitors moved off them; a page before what is on it.
 * Objects created through the API or CLI are left alone unless the file now declares the same key (it takes them over).
 */
export function planConfig(file: ConfigFile, inventory: Inventory): PlanStep[] {
  const steps: PlanStep[] = [];
  const puts = <K extends PlanKind>(
    kind: K,
    entries: { key: string; label: string; path: string; entry: PutEntry[K] }[],
    held: Held[],
  ) => {
    const existing = new Set(held.map((h) => h.key));
    for (const { key, label, path, entry } of entries)
      steps.push({
        action: existing.has(key) ? 'update' : 'create',
        kind,
        label,
        path,
        entry,
      } as PutStep<K> as PlanStep);
  };
  const deletes = (
    kind: PlanKind,
    held: Held[],
    declared: Set<string>,
    named: (key: string) => string,
    page?: Held,
  ) => {
    for (const h of held)
      if (h.managedBy === 'config' && !declared.has(h.key))
        steps.push({
          action: 'delete',
          kind,
          label: named(h.key),
          id: h.id,
          key: h.key,
          ...(page ? { page: { id: page.id, slug: page.key } } : {}),
        });
  };

  deletes(
    'notification',
    inventory.notifications,
    new Set(file.notifications.map((n) => n.key)),
    (key) => `notification ${key}`,
  );
  puts(
    'notification',
    file.notifications.map((entry, i) => ({
      key: entry.key,
      label: `notification ${entry.key}`,
      path: `notifications[${i}]`,
      entry,
    })),
    inventory.notifications,
  );
  deletes(
    'escalation',
    inventory.escalationPolicies,
    new Set(file.escalationPolicies.map((p) => p.key)),
    (key) => `escalation policy ${key}`,
  );
  puts(
    'escalation',
    file.escalationPolicies.map((entry, i) => ({
      key: entry.key,
      label: `escalation policy ${entry.key}`,
      path: `escalationPolicies[${i}]`,
      entry,
    })),
    inventory.escalationPolicies,
  );
  puts(
    'relay',
    file.relays.map((entry, i) => ({ key: entry.key, label: `relay ${entry.key}`, path: `relays[${i}]`, entry })),
    inventory.relays,
  );
  deletes('monitor', inventory.monitors, new Set(file.monitors.map((m) => m.key)), (key) => `monitor ${key}`);
  puts(
    'monitor',
    file.monitors.map((entry, i) => ({ key: entry.key, label: `monitor ${entry.key}`, path: `monitors[${i}]`, entry })),
    inventory.monitors,
  );
  deletes('relay', inventory.relays, new Set(file.relays.map((r) => r.key)), (key) => `relay ${key}`);

  deletes('page', inventory.pages, new Set(file.pages.map((p) => p.slug)), (slug) => `page ${slug}`);
  file.pages.forEach((page, p) => {
    const { components, incidents, maintenance, boards, ...fields } = page;
    const slug = page.slug;
    const held = inventory.pages.find((h) => h.key === slug);
    puts('page', [{ key: slug, label: `page ${slug}`, path: `pages[${p}]`, entry: fields }], held ? [held] : []);
    const on = (what: string) => (key: string) => `${what} ${slug}/${key}`;
    const componentKeys = components.map((c) => c.key ?? c.name);
    if (held) deletes('component', held.components, new Set(componentKeys), on('component'), held);
    puts(
      'component',
      components.map((entry, i) => ({
        key: componentKeys[i] as string,
        label: on('component')(componentKeys[i] as string),
        path: `pages[${p}].components[${i}]`,
        entry: { ...entry, slug, order: i },
      })),
      held?.components ?? [],
    );
    if (held) deletes('incident', held.incidents, new Set(incidents.map((i) => i.key)), on('incident'), held);
    puts(
      'incident',
      incidents.map((entry, i) => ({
        key: entry.key,
        label: on('incident')(entry.key),
        path: `pages[${p}].incidents[${i}]`,
        entry: { ...entry, slug },
      })),
      held?.incidents ?? [],
    );
    if (held) deletes('maintenance', held.maintenance, new Set(maintenance.map((m) => m.key)), on('maintenance'), held);
    puts(
      'maintenance',
      maintenance.map((entry, i) => ({
        key: entry.key,
        label: on('maintenance')(entry.key),
        path: `pages[${p}].maintenance[${i}]`,
        entry: { ...entry, slug },
      })),
      held?.maintenance ?? [],
    );
    if (held) deletes('board', held.boards, new Set(boards.map((b) => b.key)), on('board'), held);
    puts(
      'board',
      boards.map((entry, i) => ({
        key: entry.key,
        label: on('board')(entry.key),
        path: `pages[${p}].boards[${i}]`,
        entry: { ...entry, slug },
      })),
      held?.boards ?? [],
    );
  });
  return steps;
}
