// Alerts and escalation policies as TanStack Query queries (the open or recent alerts, the policies) and what a write
// refreshes. Keys: ['org', <organization>, 'alerts', …] and ['org', <organization>, 'escalation-policies'] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type AlertView = components['schemas']['Alert'];
export type EscalationPolicy = components['schemas']['EscalationPolicy'];
export type EscalationPolicyBody = components['schemas']['EscalationPolicyCreate'];
export type AlertsShown = 'open' | 'all';

/** The most recent alerts the screen lists (the API's newest first). */
const ALERTS_SHOWN = 100;

export const alertKeys = {
  all: (org: string) => [...organizationScope(org), 'alerts'] as const,
  list: (org: string, shown: AlertsShown) => [...alertKeys.all(org), 'list', shown] as const,
  policies: (org: string) => [...organizationScope(org), 'escalation-policies'] as const,
};

/** GET /api/v1/alerts: the open ones, or the most recent whatever their state. */
export const alertsQuery = (org: string, shown: AlertsShown) =>
  queryOptions({
    queryKey: alertKeys.list(org, shown),
    queryFn: () =>
      call(
        api.GET('/api/v1/alerts', { params: { query: { state: shown, limit: ALERTS_SHOWN } }, ...inOrganization(org) }),
      ),
  });

/** GET /api/v1/escalation-policies. */
export const policiesQuery = (org: string) =>
  queryOptions({
    queryKey: alertKeys.policies(org),
    queryFn: () => call(api.GET('/api/v1/escalation-policies', inOrganization(org))),
  });

/** POST /api/v1/alerts/{id}/acknowledge, with an optional note. */
export function acknowledgeAlert(id: string, note: string): Promise<AlertView> {
  const body = note.trim() ? { note: note.trim() } : {};
  return call(api.POST('/api/v1/alerts/{id}/acknowledge', { params: { path: { id } }, body }));
}

/** Creates a policy, or changes the one with `id` (its key stays). */
export function savePolicy(id: string | null, body: EscalationPolicyBody): Promise<EscalationPolicy> {
  if (id === null) return call(api.POST('/api/v1/escalation-policies', { body }));
  const { key: _key, ...patch } = body;
  return call(api.PATCH('/api/v1/escalation-policies/{id}', { params: { path: { id } }, body: patch }));
}

export function deletePolicy(id: string): Promise<unknown> {
  return call(api.DELETE('/api/v1/escalation-policies/{id}', { params: { path: { id } } }));
}

/** After an acknowledgement: every list of alerts. */
export function alertsChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: alertKeys.all(org) });
}

/** After creating, changing or deleting a policy (the alerts name it too). */
export function policiesChanged(queryClient: QueryClient, org: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: alertKeys.policies(org) }),
    alertsChanged(queryClient, org),
  ]).then(() => undefined);
}
