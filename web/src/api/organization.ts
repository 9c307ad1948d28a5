// The organization the dashboard acts in, for every screen (its key goes into every query key: query-keys.ts), and the
// organization itself (GET /api/v1/organization) with what renaming, switching and deleting it change.
import { type QueryClient, queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { chooseOrganization, chosenOrganization, organizationOf, subscribeToChoice } from './chosen-organization';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';
import { meChanged, meQuery } from './session';
import type { Me } from './types';

export type Membership = Me['organizations'][number];
export type OrganizationView = components['schemas']['Organization'];

/** The user's organization in use (undefined when they belong to none) and its key ('' then). Re-renders on a switch. */
export function useOrganization(): { me: Me; organization: Membership | undefined; key: string } {
  const { data: me } = useSuspenseQuery(meQuery);
  const choice = useSyncExternalStore(subscribeToChoice, chosenOrganization);
  const organization = organizationOf(me, choice);
  return { me, organization, key: organization?.key ?? '' };
}

/** The key every query of the screen is built with: `pagesQuery(useOrganizationKey())`. */
export function useOrganizationKey(): string {
  return useOrganization().key;
}

/**
 * Keeps the remembered choice equal to the organization in use (the remembered one may have been left or deleted):
 * writes without an organization of their own act in it. Called once, by the signed-in layout.
 */
export function useSettledOrganization(key: string): void {
  useEffect(() => {
    if (key && key !== chosenOrganization()) chooseOrganization(key);
  }, [key]);
}

/** The organization in use as the route guard sees it (from the cached user). */
export async function organizationKeyOf(queryClient: QueryClient): Promise<string> {
  return organizationOf(await queryClient.ensureQueryData(meQuery))?.key ?? '';
}

export const organizationKeys = {
  self: (org: string) => [...organizationScope(org), 'organization'] as const,
};

/** GET /api/v1/organization: its name, key, your role, who manages it. */
export const organizationQuery = (org: string) =>
  queryOptions({
    queryKey: organizationKeys.self(org),
    queryFn: () => call(api.GET('/api/v1/organization', inOrganization(org))),
  });

/** Renamed: the answer is the organization; the header's switcher names it through the user. */
export async function organizationRenamed(
  queryClient: QueryClient,
  org: string,
  renamed: OrganizationView,
): Promise<void> {
  queryClient.setQueryData(organizationKeys.self(org), renamed);
  await meChanged(queryClient);
}

/**
 * Acts in another organization from now on. Nothing needs clearing for that: every key holds the organization. What
 * was cached of the one left stays until TanStack Query collects it (5 minutes unused), so going back shows it at once
 * while it is read again.
 */
export function switchOrganization(key: string): void {
  chooseOrganization(key);
}

/** After the organization `org` was deleted and the screen left it: nothing of it is kept. */
export function forgetOrganization(queryClient: QueryClient, org: string): void {
  queryClient.removeQueries({ queryKey: organizationScope(org) });
}
