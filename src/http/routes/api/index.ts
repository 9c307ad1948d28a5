// The organization API under /api/v1 (API keys): monitors, history, pages and what they hold, relays, keys, notification channels.
import { every } from 'hono/combine';
import { API_LIMITS } from '../../../services/api-limits.js';
import type { App } from '../../app.js';
import { apiKeyAuth, requireScope } from '../../middleware/api-key-auth.js';
import { limitBody } from '../../middleware/body-limit.js';
import { apiKeyRateLimit, createRateLimiter, type RateLimiter } from '../../middleware/rate-limit.js';
import { apiKeyRoutes } from './api-keys.js';
import { monitorRoutes } from './monitors.js';
import { notificationChannelRoutes } from './notification-channels.js';
import type { ApiGuard, ApiGuards } from './operation.js';
import { pageContentRoutes } from './page-contents.js';
import { pageSubscriberRoutes } from './page-subscribers.js';
import { pageRoutes } from './pages.js';
import { relayApiRoutes } from './relays.js';

export interface ApiOptions {
  /** Requests per key per minute; API_LIMITS.rateLimit.requests when absent. */
  rateLimitPerMinute?: number | undefined;
  /** The limiter counting them (cluster mode: shared across processes); one of this process when absent. */
  limiter?: RateLimiter | undefined;
}

export function apiRoutes(app: App, options: ApiOptions = {}): void {
  const { windowMs } = API_LIMITS.rateLimit;
  const limiter =
    options.limiter ??
    createRateLimiter({
      requests: options.rateLimitPerMinute ?? API_LIMITS.rateLimit.requests,
      windowMs,
      maxKeys: API_LIMITS.rateLimitTrackedKeys,
    });
  const authenticated = [apiKeyAuth(), apiKeyRateLimit(limiter, windowMs)] as const;
  const guards: ApiGuards = {
    read: every(...authenticated, requireScope('read')) as ApiGuard,
    write: every(...authenticated, requireScope('write'), limitBody(API_LIMITS.bodyBytes)) as ApiGuard,
  };
  monitorRoutes(app, guards);
  pageRoutes(app, guards);
  pageContentRoutes(app, guards);
  relayApiRoutes(app, guards);
  apiKeyRoutes(app, guards);
  notificationChannelRoutes(app, guards);
  pageSubscriberRoutes(app, guards);
}
