// What the services are composed from (composeServices, src/compose/services.ts): the store, clock and logger, and the
// settings the parts read.
import type { CoordinatorDeps } from '../cluster/coordinator.js';
import type { RedisConnections } from '../cluster/redis.js';
import type { AccountSettings } from '../config/settings.js';
import type { Clock } from '../domain/clock.js';
import type { SecurityOptions } from '../domain/security.js';
import type { SystemMailLimits } from '../domain/system-mail.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import type { SmtpSettings } from '../notify/mail/smtp.js';
import type { Store } from '../store/index.js';

export interface ComposeOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  baseUrl: () => string;
  /** WARDEN_LOCAL_SETUP's listener address while it runs (http/local-setup.ts); null or absent otherwise. */
  localSetupUrl?: () => string | null;
  isReady?: () => boolean;
  concurrency?: number;
  retention?: { checkDays: number; bucketDays: number };
  apiRateLimitPerMinute?: number;
  /** Per-client, per-token and per-tenant limits; SECURITY_DEFAULTS for what is not given. */
  security?: Partial<SecurityOptions>;
  domains?: DomainOptions | undefined;
  /** The system SMTP server (WARDEN_SMTP_URL, or `smtp:` in warden.yaml): page subscribers' mail, email channels without a host. */
  smtp?: SmtpSettings | undefined;
  /** The limits of mail through the system SMTP server: SYSTEM_MAIL_LIMITS for what is not given (tests make them small). */
  systemMailLimits?: Partial<SystemMailLimits> | undefined;
  /** Prometheus metrics (metrics/metrics.ts, a registry of this app's own): what the parts count; absent, nothing is counted. */
  metrics?: WardenMetrics | undefined;
  /** WARDEN_METRICS_TOKEN: the main port's GET /metrics answers its bearer; absent, it is not served there. */
  metricsToken?: string | undefined;
  /** LOG_REQUESTS=1: one info line per answered request. */
  logRequests?: boolean | undefined;
  /** WARDEN_PAGE_CACHE_MB in bytes: what the rendered forms of every page may hold together; 64 MiB when absent. */
  pageCacheBytes?: number | undefined;
  /** Who may sign up and the OpenID Connect provider (WARDEN_SIGNUP, WARDEN_OIDC_*); invitations only, no provider, when absent. */
  accounts?: AccountSettings | undefined;
  /**
   * Cluster mode (docs/cluster.md): the coordinator shares the edge monitors and the singleton runners out by leases;
   * absent, this process runs them all.
   */
  cluster?: Pick<CoordinatorDeps, 'instanceId' | 'ttlMs' | 'roundMs' | 'info'> | undefined;
  /**
   * Cluster mode: events cross processes over Redis pub/sub (on `<prefix>:events`) and the API, push and login limits
   * count across processes; absent (or null), events stay in this process and each limit counts here.
   */
  redis?: { connections: RedisConnections; prefix: string; instanceId: string } | null | undefined;
}

export interface DomainOptions {
  /** DNS servers ("ip" or "ip:port") the verification TXT lookups ask; the system's resolvers when absent. */
  dnsServers?: readonly string[] | undefined;
  /** How old a verified API domain's last lookup may get before it is looked up again; a day by default. */
  recheckEveryMs?: number | undefined;
}
