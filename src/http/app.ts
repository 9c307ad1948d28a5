// createApp(deps): the whole HTTP surface built from explicit parts, so tests pass their own store, bus, clock and logger.

import type { Hook } from '@hono/zod-openapi';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env, Hono } from 'hono';
import type { AccountSettings } from '../config/settings.js';
import type { ClusterView } from '../domain/cluster.js';
import type { TxtLookup } from '../domain/custom-domain.js';
import { ValidationError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import type { SecurityOptions } from '../domain/security.js';
import type { Logger } from '../logger.js';
import type { SignInAttempts } from '../services/accounts/sign-in-attempts.js';
import type { SignupAttempts } from '../services/accounts/signup-attempts.js';
import type { PushContext } from '../services/push/record.js';
import { loadReferenceDocs } from '../services/reference-docs.js';
import type { PagesContext } from '../services/runtime.js';
import { metricsRoute } from './metrics.js';
import { contentLength } from './middleware/content-length.js';
import { allowedMethods } from './middleware/method-not-allowed.js';
import type { RateLimiter } from './middleware/rate-limit.js';
import { requestLog } from './middleware/request-log.js';
import { openApiDocumentConfig, registerOpenApiComponents } from './openapi.js';
import { problem, problemOf, problemResponse } from './problem.js';
import { requestIdMiddleware } from './request-id.js';
import { apiRoutes } from './routes/api/index.js';
import { authRoutes } from './routes/auth/index.js';
import { oidcRoutes } from './routes/auth/oidc.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { docsRoutes } from './routes/docs.js';
import { domainCheckRoutes } from './routes/domain-check.js';
import { healthRoutes } from './routes/health.js';
import { homeRoutes } from './routes/home.js';
import { llmsRoutes } from './routes/llms.js';
import { mcpRoutes } from './routes/mcp.js';
import { pushRoutes } from './routes/push/index.js';
import { recipientLinkRoutes } from './routes/recipient-links.js';
import { referenceDocsRoutes } from './routes/reference-docs.js';
import { relayRoutes } from './routes/relay/index.js';
import { statusRoutes } from './routes/status/index.js';

/** The verbs' context (store, bus, clock, logger), the running server's parts they use, and the app's own settings. */
export interface AppDeps extends PushContext, PagesContext {
  /** Public address used in links (feeds, llms.txt, page URLs), without a trailing slash. */
  baseUrl: string;
  /** False while starting (config not applied yet) and while shutting down. */
  isReady: () => boolean;
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

export function createApp(deps: AppDeps): App {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as Hook<unknown, AppEnv, string, unknown> });
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', contentLength);
  app.use('*', requestIdMiddleware);
  app.use('*', requestLog(deps.logger, { atInfo: deps.logRequests, metrics: deps.metrics }));

  registerOpenApiComponents(app);
  healthRoutes(app);
  domainCheckRoutes(app);
  if (deps.metrics && deps.metricsToken) metricsRoute(app, deps.metrics, deps.metricsToken);
  statusRoutes(app);
  recipientLinkRoutes(app);
  pushRoutes(app);
  relayRoutes(app);
  apiRoutes(app, { rateLimitPerMinute: deps.apiRateLimitPerMinute, limiter: deps.apiRateLimiter });
  oidcRoutes(app, deps.accounts);
  authRoutes(app, deps);
  app.doc31('/api/openapi.json', (c) => openApiDocumentConfig(c.get('deps').baseUrl));
  docsRoutes(app);
  dashboardRoutes(app);
  homeRoutes(app);
  const referenceDocs = loadReferenceDocs();
  referenceDocsRoutes(app, referenceDocs);
  llmsRoutes(app, referenceDocs);
  mcpRoutes(app);

  const methodsAt = allowedMethods(app as unknown as Hono<never>);
  app.notFound((c) => {
    const allowed = methodsAt(c.req.path);
    if (allowed.length === 0) return problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`));
    const allow = { allow: allowed.join(', ') };
    if (c.req.method === 'OPTIONS') return new Response(null, { status: 204, headers: allow });
    const detail = `${c.req.method} is not supported at ${c.req.path}; use ${allow.allow}.`;
    return problemResponse(c, problem(405, 'method-not-allowed', 'Method not allowed', detail), allow);
  });
  app.onError((error, c) => {
    const answer = problemOf(error);
    if (answer.unexpected) c.get('log')?.error({ err: error }, 'unhandled error');
    return problemResponse(c, answer.problem, answer.headers);
  });
  return app;
}
