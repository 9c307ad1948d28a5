// The HTTP app's types (AppDeps, AppEnv, App) and its validation hook: what routes and middleware import, so no
// route imports app.ts (which imports every route) and the http files form no import cycle.

import type { Hook, OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import type { AccountSettings } from '../config/settings.js';
import type { Clock } from '../domain/clock.js';
import type { ClusterView } from '../domain/cluster.js';
import type { TxtLookup } from '../domain/custom-domain.js';
import { ValidationError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import type { SecurityOptions } from '../domain/security.js';
import type { Logger } from '../logger.js';
import type { SignInAttempts } from '../services/accounts/sign-in-attempts.js';
import type { SignupAttempts } from '../services/accounts/signup-attempts.js';
import type { PageAccess } from '../services/pages/page-access.js';
import type { PageCache } from '../services/pages/page-cache.js';
import type { PushContext } from '../services/push/record.js';
import type { PagesContext } from '../services/runtime.js';
import type { RateLimiter } from './middleware/rate-limit.js';

/** The verbs' context (store, bus, clock, logger), the running server's parts they use, and the app's own settings. */
export interface AppDeps extends PushContext, PagesContext {
  /** Public address used in links (feeds, llms.txt, page URLs), without a trailing slash. */
  baseUrl: string;
  /** False while starting (config not applied yet) and while shutting down. */
  isReady: () => boolean;
  /** Where the setup screen opened on the server's machine gets its code (http/local-setup.ts); null when not served. */
  localSetupUrl?: (() => string | null) | undefined;
  /** Organization API requests per key per minute (WARDEN_API_RATE_LIMIT); the default of API_LIMITS when absent. */
  apiRateLimitPerMinute?: number | undefined;
  /** Cluster mode: the API rate limit counted across processes (cluster/shared-limits.ts); one per process when absent. */
  apiRateLimiter?: RateLimiter | undefined;
  /** Per-client, per-token and per-tenant limits (docs/security.md). */
  security: SecurityOptions;
  /** Looks up `_warden.<domain>` TXT records when a page's custom domain is verified. */
  domainTxt: TxtLookup;
  /** Relay results older than this are refused (they would be pruned at once). */
  checkRetentionDays?: number | undefined;
  /** Cluster mode: this instance, its peers and its leases, shown by /readyz; absent in one process. */
  clusterView?: (() => ClusterView) | undefined;
  /** Who may sign up and the OpenID Connect provider (docs/accounts.md); invitations only, no provider, when absent. */
  accounts?: AccountSettings | undefined;
  /** Wrong account passwords and codes per account and client (cluster mode: counted across processes); one per app when absent. */
  signInAttempts?: SignInAttempts | undefined;
  /** Sign-ups per client address (cluster mode: counted across processes); one per app when absent. */
  signupAttempts?: SignupAttempts | undefined;
  /** WARDEN_METRICS_TOKEN: with `metrics`, GET /metrics answers its bearer; absent, /metrics is not served here (404). */
  metricsToken?: string | undefined;
  /** LOG_REQUESTS=1: one info line per answered request (else at debug). */
  logRequests?: boolean | undefined;
}

/** The public pages' groups (home, llms files): the page cache and the public address (read at each request). */
export interface PublicPagesDeps {
  pages: PageCache;
  readonly baseUrl: string;
}

/** The public pages' own routes (/s/{slug} and custom domains): the page cache, who may see a protected page, the clock. */
export interface PageServingDeps {
  pages: PageCache;
  pageAccess: PageAccess;
  clock: Clock;
}

/** The status routes: serving pages, and their subscriptions (verbs of their own, under the probe-target policy). */
export interface StatusDeps extends PagesContext {
  security: Pick<SecurityOptions, 'probePrivateTargets'>;
}

/** `route`: the metrics label of a request no route template names (a page form, answered by the page middleware). */
export type AppEnv = { Variables: { deps: AppDeps; requestId: string; log: Logger; route?: string } };
export type App = OpenAPIHono<AppEnv>;

/** Every request-validation failure becomes a 400 problem+json naming each wrong field (`body.name`, `query.hours`). */
export const validationHook: Hook<unknown, Env, string, unknown> = (result) => {
  if (result.success) return;
  const where = result.target === 'json' ? 'body' : result.target === 'param' ? 'path' : result.target;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: formatIssuePath([where, ...issue.path]), message: issue.message })),
  );
};
