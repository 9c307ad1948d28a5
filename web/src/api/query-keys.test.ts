// Every key an organization's query is cached under begins with that organization: two organizations never share an
// answer, so switching needs no reset. The user's own and the server's queries say so by their first element.
import { describe, expect, it } from 'vitest';
import { apiKeyKeys, apiKeysQuery } from './api-keys';
import { auditKeys, auditLogQuery, existingObjectsQuery } from './audit';
import { componentKeys, componentsQuery } from './components';
import { demoQuery } from './demo';
import { incidentDraftsQuery, incidentKeys, incidentsQuery } from './incidents';
import { invitationKeys, invitationsQuery } from './invitations';
import { maintenanceKeys, maintenanceQuery } from './maintenance';
import { memberKeys, membersQuery } from './members';
import {
  monitorKeys,
  monitorListQuery,
  monitorQuery,
  monitorSearchQuery,
  monitorStatsQuery,
  monitorTypesQuery,
  recentChecksQuery,
  sparklinesQuery,
  stateHistoryQuery,
} from './monitors';
import {
  channelKeys,
  channelsQuery,
  channelTypesQuery,
  deliveriesQuery,
  templatePreviewQuery,
} from './notification-channels';
import { organizationKeys, organizationQuery } from './organization';
import { pageAssetsQuery, pageKeys, pageQuery, pagesQuery } from './pages';
import { hasPrefix, organizationScope } from './query-keys';
import { relayKeys, relayMonitorsQuery, relaysQuery } from './relays';
import { reportKeys, uptimeReportQuery } from './reports';
import { authConfigQuery, invitationPreviewQuery, meQuery, sessionKeys, sessionsQuery } from './session';

const FACTORIES = {
  apiKeyKeys,
  auditKeys,
  componentKeys,
  incidentKeys,
  invitationKeys,
  maintenanceKeys,
  memberKeys,
  monitorKeys,
  channelKeys,
  organizationKeys,
  pageKeys,
  relayKeys,
  reportKeys,
};

/** Each organization query builder, for the organization given. */
const queries = (org: string) => [
  apiKeysQuery(org),
  auditLogQuery(org, {}),
  existingObjectsQuery(org, 'page'),
  componentsQuery(org, 'main'),
  incidentsQuery(org, undefined, 'open'),
  incidentsQuery(org, 'main', 'resolved'),
  invitationsQuery(org),
  maintenanceQuery(org, 'main', 0),
  membersQuery(org),
  monitorListQuery(org, { state: 'down' }),
  monitorQuery(org, 'mon_1'),
  monitorSearchQuery(org, 'lobby'),
  monitorStatsQuery(org, 'mon_1', '24h'),
  recentChecksQuery(org, 'mon_1'),
  stateHistoryQuery(org, 'mon_1'),
  sparklinesQuery(org, ['mon_1']),
  channelsQuery(org),
  deliveriesQuery(org, 'discord'),
  templatePreviewQuery(org, 'discord', { title: '{{title}}' }),
  organizationQuery(org),
  pagesQuery(org),
  pageQuery(org, 'main'),
  pageAssetsQuery(org, 'main'),
  relaysQuery(org),
  relayMonitorsQuery(org, 'home'),
  uptimeReportQuery(org, { from: '2026-03-01', to: '2026-03-31', monitors: 'lobby' }),
  incidentDraftsQuery(org, 'main'),
];

describe('query keys', () => {
  it('of every resource factory begin with the organization', () => {
    for (const [name, factory] of Object.entries(FACTORIES))
      for (const [part, key] of Object.entries(factory as Record<string, (...args: unknown[]) => readonly unknown[]>))
        expect(hasPrefix(key('acme', 'x', 'open'), organizationScope('acme')), `${name}.${part}`).toBe(true);
  });

  it('of every organization query begin with its organization, so two organizations never share one', () => {
    const acme = queries('acme');
    const borealis = queries('borealis');
    acme.forEach((query, i) => {
      expect(hasPrefix(query.queryKey, organizationScope('acme')), JSON.stringify(query.queryKey)).toBe(true);
      expect(borealis[i]?.queryKey.slice(2)).toEqual(query.queryKey.slice(2));
      expect(borealis[i]?.queryKey).not.toEqual(query.queryKey);
    });
  });

  it('of the user’s own and the server’s queries are outside every organization', () => {
    for (const key of [
      meQuery.queryKey,
      authConfigQuery.queryKey,
      sessionsQuery.queryKey,
      invitationPreviewQuery('t').queryKey,
      sessionKeys.me,
      demoQuery.queryKey,
    ])
      expect(key[0]).toBe('auth');
    for (const key of [monitorTypesQuery.queryKey, channelTypesQuery.queryKey]) expect(key[0]).toBe('server');
  });

  it('of one page never match another page or the list by prefix', () => {
    expect(hasPrefix(pageKeys.detail('acme', 'list'), pageKeys.list('acme'))).toBe(false);
    expect(hasPrefix(pageKeys.assets('acme', 'main'), pageKeys.one('acme', 'main'))).toBe(true);
    expect(hasPrefix(pageKeys.detail('acme', 'mainline'), pageKeys.one('acme', 'main'))).toBe(false);
  });
});
