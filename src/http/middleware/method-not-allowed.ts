// Tells a wrong method (405 with Allow) from an unknown path (404), by matching the path against every route of the app.
import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/** The methods the app serves at `path`, [] when none; the route table is read again whenever routes were added. */
export function allowedMethods(app: Hono<never>): (path: string) => string[] {
  let router: TrieRouter<string> | null = null;
  let known = -1;
  return (path) => {
    if (!router || known !== app.routes.length) {
      router = new TrieRouter<string>();
      // Middleware is registered for ALL methods; only real handlers say which methods a path has.
      for (const route of app.routes) if (route.method !== 'ALL') router.add('ALL', route.path, route.method);
      known = app.routes.length;
    }
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  };
}
