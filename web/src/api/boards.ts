// A page's Discord boards as a TanStack Query query, and what a write on one refreshes. Keys: ['org', <organization>,
// 'boards', <page>] (query-keys.ts). While an edit waits to go, the list is read again every few seconds, so the
// message's state (posted, pending, failed) follows the keeper without a reload.
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type BoardView = components['schemas']['Board'];
export type BoardCreate = components['schemas']['BoardCreate'];
export type BoardPatch = components['schemas']['BoardPatch'];

/** How often the list is read again while one of its boards has an edit waiting. */
const PENDING_POLL_MS = 3_000;

export const boardKeys = {
  all: (org: string) => [...organizationScope(org), 'boards'] as const,
  ofPage: (org: string, slug: string) => [...boardKeys.all(org), slug] as const,
};

/** A page's boards, by key. */
export const boardsQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: boardKeys.ofPage(org, slug),
    queryFn: () => call(api.GET('/api/v1/pages/{slug}/boards', { params: { path: { slug } }, ...inOrganization(org) })),
    select: (data) => data.boards,
    refetchInterval: (query) =>
      query.state.data?.boards.some((b) => b.enabled && !b.message.stopped && b.message.pending)
        ? PENDING_POLL_MS
        : false,
  });

export function createBoard(org: string, slug: string, body: BoardCreate): Promise<BoardView> {
  return call(api.POST('/api/v1/pages/{slug}/boards', { params: { path: { slug } }, body, ...inOrganization(org) }));
}

export function updateBoard(org: string, slug: string, id: string, body: BoardPatch): Promise<BoardView> {
  return call(
    api.PATCH('/api/v1/pages/{slug}/boards/{id}', { params: { path: { slug, id } }, body, ...inOrganization(org) }),
  );
}

export function deleteBoard(org: string, slug: string, id: string): Promise<unknown> {
  return call(
    api.DELETE('/api/v1/pages/{slug}/boards/{id}', { params: { path: { slug, id } }, ...inOrganization(org) }),
  );
}

/** After adding, changing or deleting a board, or a component the boards name: the page's boards. */
export function boardsChanged(queryClient: QueryClient, org: string, slug: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: boardKeys.ofPage(org, slug) });
}
