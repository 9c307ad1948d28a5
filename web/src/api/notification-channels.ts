// Notification channels as TanStack Query queries (the list, the channel types with their schemas, a channel's
// delivery log) and what a write refreshes. Keys: ['org', <organization>, 'notification-channels', …] (query-keys.ts).
import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope, SERVER_SCOPE } from './query-keys';
import type { components } from './schema';

/** The deliveries a channel's log shows. */
const DELIVERIES_SHOWN = 50;

export const channelKeys = {
  all: (org: string) => [...organizationScope(org), 'notification-channels'] as const,
  list: (org: string) => [...channelKeys.all(org), 'list'] as const,
  deliveries: (org: string, channelKey: string) => [...channelKeys.all(org), 'deliveries', channelKey] as const,
  templatePreview: (org: string, type: string, template: unknown) =>
    [...channelKeys.all(org), 'template-preview', type, template] as const,
};

type ChannelTypeId = NonNullable<components['schemas']['MessageTemplatePreviewRequest']['type']>;
type TemplateParts = components['schemas']['MessageTemplatePreviewRequest']['template'];

/** GET /api/v1/notification-channels (the Notifications screen, and the channels a page names). */
export const channelsQuery = (org: string) =>
  queryOptions({
    queryKey: channelKeys.list(org),
    queryFn: () => call(api.GET('/api/v1/notification-channels', inOrganization(org))),
  });

/** The channel types and their JSON Schemas: the same for the whole server, so fetched once. */
export const channelTypesQuery = queryOptions({
  queryKey: [...SERVER_SCOPE, 'notification-channel-types'],
  queryFn: () => call(api.GET('/api/v1/notification-channel-types')),
  staleTime: Number.POSITIVE_INFINITY,
});

/** A channel's last deliveries, newest first. */
export const deliveriesQuery = (org: string, channelKey: string) =>
  queryOptions({
    queryKey: channelKeys.deliveries(org, channelKey),
    queryFn: () =>
      call(
        api.GET('/api/v1/notification-channels/{key}/deliveries', {
          params: { path: { key: channelKey }, query: { limit: DELIVERIES_SHOWN } },
          ...inOrganization(org),
        }),
      ),
  });

/** A message template rendered over a sample event of every kind as a channel of `type` sends it; a 400 is the error. */
export const templatePreviewQuery = (org: string, type: ChannelTypeId, template: TemplateParts) =>
  queryOptions({
    queryKey: channelKeys.templatePreview(org, type, template),
    queryFn: () =>
      call(
        api.POST('/api/v1/notification-channels/preview-template', {
          body: { type, template },
          ...inOrganization(org),
        }),
      ),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** After creating, changing or deleting a channel (and with it its log). */
export function channelsChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: channelKeys.all(org) });
}

/** After a test: the channel's log has it. */
export function deliveriesChanged(queryClient: QueryClient, org: string, channelKey: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: channelKeys.deliveries(org, channelKey) });
}
