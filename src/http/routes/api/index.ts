// The organization API under /api/v1 (API keys): monitors, history, pages, components, incidents, maintenance, relays, keys.
import { API_LIMITS } from '../../../services/api-limits.js';
import type { App } from '../../app.js';
import { apiKeyAuth, requireScope } from '../../middleware/api-key-auth.js';
import { limitBody } from '../../middleware/body-limit.js';
import { apiKeyRateLimit, createRateLimiter } from '../../middleware/rate-limit.js';
import { apiKeyRoutes } from './api-keys.js';
import { componentRoutes } from './components.js';
import { incidentRoutes } from './incidents.js';
import { maintenanceRoutes } from './maintenance.js';
import { monitorRoutes } from './monitors.js';
import { pageRoutes } from './pages.js';
import { relayApiRoutes } from './relays.js';
import { type ApiGuards, chain } from './route.js';

export interface ApiOptions {
  /** Requests per key per minute; API_LIMITS.rateLimit.requests when absent. */
  rateLimitPerMinute?: number | undefined;
}

export function apiRoutes(app: App, options: ApiOptions = {}): void {
  const { windowMs } = API_LIMITS.rateLimit;
  const limiter = createRateLimiter({
    requests: options.rateLimitPerMinute ?? API_LIMITS.rateLimit.requests,
    windowMs,
    maxKeys: API_LIMITS.rateLimitTrackedKeys,
  });
  const authenticated = [apiKeyAuth(), apiKeyRateLimit(limiter, windowMs)];
  const guards: ApiGuards = {
    read: chain(...authenticated, requireScope('read')),
    write: chain(...authenticated, requireScope('write'), limitBody(API_LIMITS.bodyBytes)),
  };
  monitorRoutes(app, guards);
  pageRoutes(app, guards);
  componentRoutes(app, guards);
  incidentRoutes(app, guards);
  maintenanceRoutes(app, guards);
  relayApiRoutes(app, guards);
  apiKeyRoutes(app, guards);
}
