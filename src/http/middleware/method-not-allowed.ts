// Tells a wrong method (405 with Allow) from an unknown path (404), by matching the path against every route of the app.
import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * A path served by middleware rather than a route (the public page forms, resolved in one place by their own
 * middleware), as the OpenAPI document declares it: `{slug}` for a parameter.
 */
export interface ServedPath {
  method: string;
  path: string;
}

/** The methods the app serves at `path`, [] when none; the route table is read again whenever routes were added. */
export function allowedMethods(
  app: Hono<never>,
  served: () => readonly ServedPath[] = () => [],
): (path: string) => string[] {
  let router: TrieRouter<string> | null = null;
  let known = -1;
  return (path) => {
    const extra = served();
    if (!router || known !== app.routes.length + extra.length) {
      router = new TrieRouter<string>();
      // Middleware is registered for ALL methods; only real handlers say which methods a path has.
      for (const route of app.routes) if (route.method !== 'ALL') router.add('ALL', route.path, route.method);
      for (const route of extra) router.add('ALL', routerPath(route.path), route.method.toUpperCase());
      known = app.routes.length + extra.length;
    }
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  };
}

/**
 * An OpenAPI path as the router reads it: `{slug}` is a parameter; `{name}.md` one whose segment must end in `.md`
 * (a bare `:name.md` would take any segment, so /docs/package.json would seem to be served).
 */
function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}([^/]*)/g, (_all, name: string, rest: string) =>
    rest === '' ? `:${name}` : `:${name}{[^/]+${rest.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}}`,
  );
}
