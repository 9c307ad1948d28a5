// The organization the user chose to act in: its key, remembered in localStorage (not a secret), and told to whoever
// subscribes (the hooks of organization.ts, so screens re-render with the new key in their queries' keys).
import type { Me } from './types';

const STORAGE_KEY = 'warden.organization';

let chosen: string | null = read();
const listeners = new Set<() => void>();

export function chosenOrganization(): string | null {
  return chosen;
}

export function chooseOrganization(key: string): void {
  if (key === chosen) return;
  chosen = key;
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage may be off (private mode): the choice then lasts until the tab closes.
  }
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: called after each choice. */
export function subscribeToChoice(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The organization in use: the chosen one when the user still belongs to it, else their first (none: undefined). */
export function organizationOf(me: Me, choice: string | null = chosen): Me['organizations'][number] | undefined {
  return me.organizations.find((o) => o.key === choice) ?? me.organizations[0];
}

function read(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
