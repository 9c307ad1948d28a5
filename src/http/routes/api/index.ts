// The organization API under /api/v1 (API keys or a session): monitors, history, pages and what they hold, relays, keys, notification channels,
// the organization itself, its members, invitations and audit log.
import { every } from 'hono/combine';
import type { Role } from '../../../domain/account.js';
import type { TxtLookup } from '../../../domain/custom-domain.js';
import type { SecurityOptions } from '../../../domain/security.js';
import type { Ingest } from '../../../runner/ingest.js';
import { API_LIMITS } from '../../../services/api-limits.js';
import type { App } from '../../env.js';
import { apiCompression } from '../../middleware/api-compression.js';
import { limitBody } from '../../middleware/body-limit.js';
import { orgAuth, requireRole } from '../../middleware/org-auth.js';
import { apiRateLimit, createRateLimiter, type RateLimiter } from '../../middleware/rate-limit.js';
import { alertRoutes } from './alerts.js';
import { apiKeyRoutes } from './api-keys.js';
import { auditRoutes } from './audit.js';
import { escalationPolicyRoutes } from './escalation-policies.js';
import { incidentDraftRoutes } from './incident-drafts.js';
import { invitationRoutes } from './invitations.js';
import { memberRoutes } from './members.js';
import { monitorRoutes } from './monitors.js';
import { notificationChannelRoutes } from './notification-channels.js';
import type { ApiGuard, ApiGuards } from './operation.js';
import { organizationRoutes } from './organization.js';
import { pageAssetRoutes } from './page-assets.js';
import { pageBoardRoutes } from './page-boards.js';
import { pageContentRoutes } from './page-contents.js';
import { pageSubscriberRoutes } from './page-subscribers.js';
import { pageRoutes } from './pages.js';
import { panelRoutes } from './panels.js';
import { relayApiRoutes } from './relays.js';
import { reportRoutes } from './reports.js';

export interface ApiOptions {
  /** Requests per key per minute; API_LIMITS.rateLimit.requests when absent. */
  rateLimitPerMinute?: number | undefined;
  /** The limiter counting them (cluster mode: shared across processes); one of this process when absent. */
  limiter?: RateLimiter | undefined;
}

/** What of the running server the API's verbs use beyond their context: each route group is handed its share. */
export interface ApiRunning {
  /** Probe runs (test, check now) record through ingest, under the probe-target policy. */
  ingest: Ingest;
  security: Pick<SecurityOptions, 'probePrivateTargets'>;
  /** A page's custom domain is verified by its `_warden.<domain>` TXT record. */
  domainTxt: TxtLookup;
}

export function apiRoutes(app: App, running: ApiRunning, options: ApiOptions = {}): void {
  const { windowMs } = API_LIMITS.rateLimit;
  const limiter =
    options.limiter ??
    createRateLimiter({
      requests: options.rateLimitPerMinute ?? API_LIMITS.rateLimit.requests,
      windowMs,
      maxKeys: API_LIMITS.rateLimitTrackedKeys,
    });
  const authenticated = [orgAuth(), apiRateLimit(limiter, windowMs)] as const;
  const guard = (role: Role, write: boolean) =>
    (write
      ? every(...authenticated, requireRole(role), limitBody(API_LIMITS.bodyBytes))
      : every(...authenticated, requireRole(role))) as ApiGuard;
  const guards: ApiGuards = { read: guard('viewer', false), write: guard('editor', true), for: guard };
  // JSON answers over 1 KB compressed on the fly (pushes and relays live outside /api/v1, public forms are precompressed).
  app.use('/api/v1/*', apiCompression);
  monitorRoutes(app, guards, running);
  panelRoutes(app, guards, running);
  pageRoutes(app, guards, running.domainTxt);
  pageAssetRoutes(app, guards);
  pageContentRoutes(app, guards);
  incidentDraftRoutes(app, guards);
  pageBoardRoutes(app, guards);
  relayApiRoutes(app, guards);
  apiKeyRoutes(app, guards);
  notificationChannelRoutes(app, guards, running.security);
  pageSubscriberRoutes(app, guards);
  organizationRoutes(app, guards);
  memberRoutes(app, guards);
  invitationRoutes(app, guards);
  auditRoutes(app, guards);
  reportRoutes(app, guards);
  alertRoutes(app, guards);
  escalationPolicyRoutes(app, guards);
}
