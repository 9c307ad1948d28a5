// Pterodactyl and Pelican panels (docs/panels.md): the shapes of discovery and apply, and what an apply refreshes.
// Nothing of a panel is cached: discovery answers a request that carries the panel's key, which the screen keeps in
// its own state only (never in a query or mutation cache, nor in the browser's storage).
import type { QueryClient } from '@tanstack/react-query';
import { componentsChanged } from './components';
import { monitorsChanged } from './monitors';
import type { components } from './schema';

export type PanelDiscovery = components['schemas']['PanelDiscovery'];
export type PanelProposal = PanelDiscovery['proposals'][number];
export type PanelApplyBody = components['schemas']['PanelApply'];
export type PanelApplyReport = components['schemas']['PanelApplyReport'];
export type PanelServerResult = PanelApplyReport['servers'][number];

/** After an apply: the monitors it made or changed, and the components of the page they went on. */
export function panelApplied(queryClient: QueryClient, org: string, page: string): Promise<unknown> {
  return Promise.all([monitorsChanged(queryClient, org), componentsChanged(queryClient, org, page)]);
}
