// What a screen shows for a query until it has something to draw: loading, failed (the problem's detail, with a retry)
// or empty; then its children with the data. Screens write `<QueryState query={…}>{(data) => …}</QueryState>` instead
// of their own branches, so the three states look and sound (role=status, role=alert) the same everywhere.
import type { ReactNode } from 'react';
import { ErrorState, LoadingState } from './states';

/** What QueryState reads of a query: TanStack Query's results have it, and so does a screen's own combination of them. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

export interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** The spinner's words, e.g. "Loading pages". */
  loading: string;
  /** The failure's title, e.g. "Could not load the pages"; the API's problem detail is its text. */
  failed: string;
  /** When the data holds nothing to show: `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

export function QueryState<T>({ query, loading, failed, isEmpty, empty, children }: QueryStateProps<T>): ReactNode {
  // A failure wins over data held from before it, as the screens always showed it.
  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} title={failed} />;
  if (query.isPending || query.data === undefined) return <LoadingState label={loading} />;
  if (isEmpty?.(query.data)) return empty ?? null;
  return children(query.data);
}
