// What the HTTP app is built from (AppDeps, http/env.ts): the verbs' parts, the running server's caches and limiters,
// and the app's own settings.
import type { Coordinator } from '../cluster/coordinator.js';
import { createSharedApiLimiter, type SharedLimitOptions } from '../cluster/shared-limits.js';
import type { TxtLookup } from '../domain/custom-domain.js';
import type { SecurityOptions } from '../domain/security.js';
import type { AppDeps } from '../http/env.js';
import type { Ingest } from '../runner/ingest.js';
import type { SignInAttempts } from '../services/accounts/sign-in-attempts.js';
import type { SignupAttempts } from '../services/accounts/signup-attempts.js';
import { API_LIMITS } from '../services/api-limits.js';
import type { ServiceContext } from '../services/context.js';
import type { PageAccess } from '../services/pages/page-access.js';
import type { PageCache } from '../services/pages/page-cache.js';
import type { PushRateLimiter } from '../services/push/rate-limit.js';
import type { PushTokenCache } from '../services/push/token-cache.js';
import type { ComposeOptions } from './options.js';

export interface AppParts {
  context: ServiceContext;
  security: SecurityOptions;
  ingest: Ingest;
  pages: PageCache;
  pageAccess: PageAccess;
  pushTokens: PushTokenCache;
  pushLimiter: PushRateLimiter;
  domainTxt: TxtLookup;
  signInAttempts: SignInAttempts;
  signupAttempts: SignupAttempts;
  coordinator: Coordinator | null;
  shared: SharedLimitOptions | null;
}

export function appDepsOf(options: ComposeOptions, parts: AppParts): AppDeps {
  const { context, coordinator, shared } = parts;
  return {
    ...context,
    ingest: parts.ingest,
    pages: parts.pages,
    pageAccess: parts.pageAccess,
    pushTokens: parts.pushTokens,
    domainTxt: parts.domainTxt,
    pushLimiter: parts.pushLimiter,
    get baseUrl() {
      return options.baseUrl();
    },
    localSetupUrl: options.localSetupUrl ?? (() => null),
    isReady: options.isReady ?? (() => true),
    security: parts.security,
    signInAttempts: parts.signInAttempts,
    signupAttempts: parts.signupAttempts,
    ...(options.apiRateLimitPerMinute ? { apiRateLimitPerMinute: options.apiRateLimitPerMinute } : {}),
    ...(shared
      ? {
          apiRateLimiter: createSharedApiLimiter({
            ...shared,
            requests: options.apiRateLimitPerMinute ?? API_LIMITS.rateLimit.requests,
            windowMs: API_LIMITS.rateLimit.windowMs,
          }),
        }
      : {}),
    ...(options.retention ? { checkRetentionDays: options.retention.checkDays } : {}),
    ...(coordinator ? { clusterView: () => coordinator.status() } : {}),
    ...(options.accounts ? { accounts: options.accounts } : {}),
    metricsToken: options.metricsToken,
    logRequests: options.logRequests,
  };
}
