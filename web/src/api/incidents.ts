// Incidents, of one page or of the whole organization, and a page's draft incidents, as TanStack Query queries, and
// what a write on one refreshes.
// Keys: ['org', <organization>, 'incidents', …] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type IncidentView = components['schemas']['Incident'];
export type OrganizationIncident = components['schemas']['OrganizationIncident'];
export type IncidentStatus = IncidentView['status'];
export type IncidentImpact = IncidentView['impact'];
export type IncidentDraft = components['schemas']['IncidentDraft'];

export const INCIDENT_STATUSES: readonly { value: IncidentStatus; label: string }[] = [
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];
export const INCIDENT_IMPACTS: readonly { value: IncidentImpact; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'minor', label: 'Minor' },
  { value: 'major', label: 'Major' },
  { value: 'critical', label: 'Critical' },
];

export const incidentKeys = {
  all: (org: string) => [...organizationScope(org), 'incidents'] as const,
  list: (org: string, slug: string | undefined, state: 'open' | 'resolved') =>
    [...incidentKeys.all(org), { page: slug ?? null, state }] as const,
  /** A page's drafts waiting for an operator (under `all`: publishing one changes the incident lists too). */
  drafts: (org: string, slug: string) => [...incidentKeys.all(org), 'drafts', slug] as const,
};

/** A page's incidents, or (slug undefined) the organization's: open ones, or the latest resolved. */
export const incidentsQuery = (org: string, slug: string | undefined, state: 'open' | 'resolved') =>
  queryOptions({
    queryKey: incidentKeys.list(org, slug, state),
    queryFn: async (): Promise<OrganizationIncident[]> => {
      if (!slug)
        return (
          await call(
            api.GET('/api/v1/incidents', {
              params: { query: { state, limit: state === 'open' ? 200 : 20 } },
              ...inOrganization(org),
            }),
          )
        ).incidents;
      const [page, list] = await Promise.all([
        call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } }, ...inOrganization(org) })),
        call(
          api.GET('/api/v1/pages/{slug}/incidents', {
            params: { path: { slug }, query: { limit: 200 } },
            ...inOrganization(org),
          }),
        ),
      ]);
      const ref = { slug: page.slug, title: page.title };
      return list.incidents
        .filter((i) => (i.status === 'resolved') === (state === 'resolved'))
        .map((i) => ({ ...i, page: ref }));
    },
  });

/** A page's draft incidents still waiting, newest first (docs/states.md, "Draft incidents"). */
export const incidentDraftsQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: incidentKeys.drafts(org, slug),
    queryFn: async () =>
      (
        await call(
          api.GET('/api/v1/pages/{slug}/incident-drafts', {
            params: { path: { slug }, query: { status: 'draft' } },
            ...inOrganization(org),
          }),
        )
      ).drafts,
  });

/**
 * After opening, updating, changing or deleting an incident, or publishing or discarding a draft: every incident list
 * and draft list of the organization.
 */
export function incidentsChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: incidentKeys.all(org) });
}
