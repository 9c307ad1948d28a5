// Which of the user's organizations the dashboard acts in: its key, remembered in localStorage (not a secret) and
// sent as X-Warden-Organization with every request.
import type { Me } from './types';

const STORAGE_KEY = 'warden.organization';

let chosen: string | null = read();

export function chosenOrganization(): string | null {
  return chosen;
}

export function chooseOrganization(key: string): void {
  chosen = key;
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage may be off (private mode): the choice then lasts until the tab closes.
  }
}

/** The organization in use: the remembered one when the user still belongs to it, else their first. */
export function currentOrganization(me: Me): Me['organizations'][number] | undefined {
  const found = me.organizations.find((o) => o.key === chosen) ?? me.organizations[0];
  if (found && found.key !== chosen) chooseOrganization(found.key);
  return found;
}

function read(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
