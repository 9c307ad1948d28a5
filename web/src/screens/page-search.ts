// The Incidents and Maintenance screens' one query parameter, ?page=<slug>: the page they show (all pages without it).

export interface PageSearch {
  page?: string;
}

/** The route's validateSearch: a non-empty slug-sized string, or nothing. */
export function pageSearch(search: Record<string, unknown>): PageSearch {
  const page = search['page'];
  return typeof page === 'string' && page.trim() !== '' && page.length <= 200 ? { page } : {};
}
