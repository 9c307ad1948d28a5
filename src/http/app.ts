// createApp(deps): the whole HTTP surface built from explicit parts, so tests pass their own store, bus, clock and logger.

import { type Hook, OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { loadReferenceDocs } from '../services/reference-docs.js';
import { type App, type AppDeps, type AppEnv, validationHook } from './env.js';
import { metricsRoute } from './metrics.js';
import { contentLength } from './middleware/content-length.js';
import { allowedMethods, type ServedPath } from './middleware/method-not-allowed.js';
import { requestLog } from './middleware/request-log.js';
import { openApiDocumentConfig, registerOpenApiComponents } from './openapi.js';
import { problem, problemOf, problemResponse } from './problem.js';
import { requestIdMiddleware } from './request-id.js';
import { alertLinkRoutes } from './routes/alert-links.js';
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
  healthRoutes(app, deps);
  domainCheckRoutes(app, deps.pages);
  if (deps.metrics && deps.metricsToken) metricsRoute(app, deps.metrics, deps.metricsToken);
  statusRoutes(app, deps);
  recipientLinkRoutes(app, deps);
  alertLinkRoutes(app, deps);
  pushRoutes(app, deps);
  relayRoutes(app, deps);
  apiRoutes(app, deps, { rateLimitPerMinute: deps.apiRateLimitPerMinute, limiter: deps.apiRateLimiter });
  oidcRoutes(app, deps.accounts);
  authRoutes(app, deps);
  app.doc31('/api/openapi.json', (c) => openApiDocumentConfig(c.get('deps').baseUrl));
  docsRoutes(app);
  dashboardRoutes(app);
  homeRoutes(app, deps);
  const referenceDocs = loadReferenceDocs();
  referenceDocsRoutes(app, referenceDocs);
  llmsRoutes(app, deps, referenceDocs);
  mcpRoutes(app);

  // The public page forms are answered by middleware: the paths the OpenAPI document declares say which methods they take.
  const methodsAt = allowedMethods(app as unknown as Hono<never>, () => documentedPaths(app));
  app.notFound((c) => {
    const allowed = methodsAt(c.req.path);
    // No route at the path, or one that takes this method and found nothing there (a file /docs/{name}.md does not have).
    if (allowed.length === 0 || (c.req.method !== 'OPTIONS' && allowed.includes(c.req.method)))
      return problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`));
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

/** Every path and method the OpenAPI document declares (those of routes too: the router has them already, harmlessly twice). */
function documentedPaths(app: App): ServedPath[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === 'route' ? [{ method: d.route.method, path: d.route.path }] : [],
  );
}
