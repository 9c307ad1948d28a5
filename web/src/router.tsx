// Every route of the dashboard, in this one file: a screen is one line here (a lazy route to screens/<name>.tsx), its
// name in the tree below, and a link in ui/navigation.tsx. Signed-in screens sit under the auth guard; account screens do not.
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { isApiError } from './api/client';
import { prefetchMonitorList } from './api/monitors';
import { authConfigQuery, meQuery } from './api/session';
import { loginSearch, tokenSearch } from './screens/account-search';
import { monitorSearch } from './screens/monitors-search';
import { pageSearch } from './screens/page-search';
import { AccountLayout } from './ui/account-layout';
import { DashboardShell } from './ui/app-shell';
import { NotFound } from './ui/not-found';
import { ErrorState, LoadingState } from './ui/states';

export interface RouterContext {
  queryClient: QueryClient;
}

/** A screen's module: its default export is the screen, fetched when its route is first visited (a chunk of its own). */
type ScreenModule = () => Promise<{ default: () => ReactNode }>;

const root = createRootRouteWithContext<RouterContext>()({ component: Outlet, notFoundComponent: NotFound });

const signedOut = createRoute({ getParentRoute: () => root, id: 'signed-out', component: AccountLayout });

const signedIn = createRoute({
  getParentRoute: () => root,
  id: 'signed-in',
  component: DashboardShell,
  // The auth guard: no session (401) goes to sign in, and comes back here afterwards — or, while no account exists
  // at all, to the setup screen that creates the owner with the setup code.
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (error) {
      if (!isApiError(error, 401)) throw error;
      const config = await context.queryClient.fetchQuery({ ...authConfigQuery, staleTime: 0 }).catch(() => null);
      if (config?.setupRequired) throw redirect({ to: '/setup' });
      throw redirect({ to: '/login', search: { next: location.href } });
    }
  },
});
const screen = <const P extends string>(path: P, load: ScreenModule) =>
  createRoute({ getParentRoute: () => signedIn, path, component: lazyRouteComponent(load) });

// Signed out: the account screens, each reading its own query parameters.
const login = createRoute({
  getParentRoute: () => signedOut,
  path: 'login',
  validateSearch: loginSearch,
  component: lazyRouteComponent(() => import('./screens/login')),
});
const setup = createRoute({
  getParentRoute: () => signedOut,
  path: 'setup',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./screens/setup')),
});
const invite = createRoute({
  getParentRoute: () => signedOut,
  path: 'invite',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./screens/invite')),
});
const reset = createRoute({
  getParentRoute: () => signedOut,
  path: 'reset',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./screens/reset')),
});
const confirmEmail = createRoute({
  getParentRoute: () => signedOut,
  path: 'confirm-email',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./screens/confirm-email')),
});
const confirmSignup = createRoute({
  getParentRoute: () => signedOut,
  path: 'confirm-signup',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./screens/confirm-signup')),
});

// Signed in: one line per screen. (Routes are consts, not written inside addChildren: TypeScript would widen their paths.)
const home = createRoute({
  getParentRoute: () => signedIn,
  path: '/',
  beforeLoad: () => redirect({ to: '/monitors', throw: true }),
});
const monitors = createRoute({
  getParentRoute: () => signedIn,
  path: 'monitors',
  validateSearch: monitorSearch,
  // The first page is asked for at once, alongside the screen's code (not after it): the list shows sooner. Not awaited.
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void prefetchMonitorList(context.queryClient, deps),
  component: lazyRouteComponent(() => import('./screens/monitors')),
});
const monitor = screen('monitors/$monitorId', () => import('./screens/monitor'));
const monitorNew = screen('monitors/new', () => import('./screens/monitor-form'));
const monitorEdit = screen('monitors/$monitorId/edit', () => import('./screens/monitor-form'));
const pages = screen('pages', () => import('./screens/pages'));
const page = screen('pages/$slug', () => import('./screens/page'));
const incidents = createRoute({
  getParentRoute: () => signedIn,
  path: 'incidents',
  validateSearch: pageSearch,
  component: lazyRouteComponent(() => import('./screens/incidents')),
});
const maintenance = createRoute({
  getParentRoute: () => signedIn,
  path: 'maintenance',
  validateSearch: pageSearch,
  component: lazyRouteComponent(() => import('./screens/maintenance')),
});
const reports = screen('reports', () => import('./screens/reports'));
const alerts = screen('alerts', () => import('./screens/alerts'));
const relays = screen('relays', () => import('./screens/relays'));
const panels = screen('panels', () => import('./screens/panels'));
const notifications = screen('notifications', () => import('./screens/notifications'));
const apiKeys = screen('settings/api-keys', () => import('./screens/api-keys'));
const members = screen('settings/members', () => import('./screens/members'));
const auditLog = screen('settings/audit-log', () => import('./screens/audit-log'));
const organizationSettings = screen('settings/organization', () => import('./screens/organization'));
const account = screen('account', () => import('./screens/account'));

const routeTree = root.addChildren([
  signedOut.addChildren([login, setup, invite, reset, confirmEmail, confirmSignup]),
  signedIn.addChildren([
    home,
    monitors,
    monitor,
    monitorNew,
    monitorEdit,
    pages,
    page,
    incidents,
    maintenance,
    reports,
    alerts,
    relays,
    panels,
    notifications,
    apiKeys,
    members,
    auditLog,
    organizationSettings,
    account,
  ]),
]);

/** The dashboard's router; main.tsx gives it the query client through RouterProvider's context. */
export const router = createRouter({
  routeTree,
  basepath: '/app',
  // Given for real by <RouterProvider context> in main.tsx, once the query client exists.
  context: { queryClient: undefined as unknown as QueryClient },
  defaultPreload: 'intent',
  // Data comes from TanStack Query, which caches it; the router only waits for it.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <LoadingState />,
  defaultErrorComponent: ({ error, reset }) => <ErrorState error={error} onRetry={reset} title="This screen failed" />,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
