// Process settings from the environment (and CLI flags), validated once at start-up.
import { hostname } from 'node:os';
import { z } from 'zod';
import { SIGNUP_MODES, type SignupMode } from '../domain/account.js';
import { LEASE_DEFAULTS } from '../domain/cluster.js';
import { formatIssuePath } from '../domain/issue-path.js';
import { SECURITY_DEFAULTS, type SecurityOptions } from '../domain/security.js';
import { SMTP_TENANT_MODES } from '../domain/system-mail.js';
import type { SmtpSettings } from '../notify/mail/smtp.js';
import { DEFAULT_HEAP_GROWTH_PERCENT, DEFAULT_YOUNG_GENERATION_MB } from '../runtime/heap.js';
import type { OidcSettings } from '../services/accounts/oidc-client.js';
import { API_LIMITS } from '../services/api-limits.js';
import { DEFAULT_PAGE_CACHE_MB } from '../services/pages/render-budget.js';
import { oidcSettings, smtpSettings } from './setting-groups.js';
import { SECRET_SETTINGS, settingMessage } from './setting-message.js';

const settingsSchema = z.object({
  PORT: integerSetting(0, 65535, 'a port number').default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  WARDEN_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_SCHEMA: z.string().optional(),
  WARDEN_SQLITE_SYNC: z.enum(['full', 'normal']).default('full'),
  WARDEN_CONFIG: z.string().optional(),
  WARDEN_BASE_URL: z.url().optional(),
  WARDEN_CHECK_RETENTION_DAYS: integerSetting(1, 3650).default(30),
  WARDEN_BUCKET_RETENTION_DAYS: integerSetting(1, 3650).default(400),
  WARDEN_CONCURRENCY: integerSetting(1, 10_000).default(256),
  WARDEN_API_RATE_LIMIT: integerSetting(1, 1_000_000).default(API_LIMITS.rateLimit.requests),
  WARDEN_HEAP_GROWTH_PERCENT: integerSetting(0, 1000).default(DEFAULT_HEAP_GROWTH_PERCENT),
  WARDEN_YOUNG_GENERATION_MB: integerSetting(0, 1024).default(DEFAULT_YOUNG_GENERATION_MB),
  WARDEN_PAGE_CACHE_MB: integerSetting(1, 65_536).default(DEFAULT_PAGE_CACHE_MB),
  WARDEN_FAST_PATH: z.enum(['0', '1'], { error: 'expected 0 (every request through the app) or 1' }).default('1'),
  // Read by the launcher (src/cli/launch.ts) before the bundle loads; checked here so a wrong value is told.
  WARDEN_CODE_CACHE: z
    .enum(['0', '1'], { error: 'expected 1 (start from the compiled code the build wrote) or 0 (to measure without)' })
    .default('1'),
  WARDEN_TICK_SHAPE_PIN: z
    .enum(['0', '1'], { error: 'expected 1 (keep the hot paths fast after a quiet spell) or 0 (to measure without)' })
    .default('1'),
  WARDEN_LOCAL_SETUP: z
    .enum(['0', '1'], { error: 'expected 1 (a browser on this machine gets the setup code by itself) or 0' })
    .default('1'),
  WARDEN_TRUST_PROXY: z
    .enum(['0', '1'], { error: 'expected 1 (behind a reverse proxy that sets X-Forwarded-For) or 0' })
    .default('0'),
  WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: integerSetting(1, 10_000).default(SECURITY_DEFAULTS.loginAttemptsPerMinute),
  WARDEN_PUSH_RATE: numberSetting(0.01, 100_000).default(SECURITY_DEFAULTS.pushPerSecond),
  WARDEN_PUSH_BURST: integerSetting(1, 1_000_000).default(SECURITY_DEFAULTS.pushBurst),
  WARDEN_LIVE_PER_CLIENT: integerSetting(1, 1_000_000).default(SECURITY_DEFAULTS.liveConnectionsPerClient),
  WARDEN_LIVE_MAX: integerSetting(1, 10_000_000).optional(),
  WARDEN_PROBE_PRIVATE_TARGETS: z.enum(['allow', 'deny', 'auto']).default(SECURITY_DEFAULTS.probePrivateTargets),
  WARDEN_CHANGE_POLL_MS: integerSetting(50, 60_000).default(SECURITY_DEFAULTS.changePollMs),
  WARDEN_DNS_SERVERS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(
      z.array(
        z.string().regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+)(:\d{1,5})?$/, {
          error: 'expected IP addresses, optionally with :port, separated by commas',
        }),
      ),
    )
    .optional(),
  WARDEN_RDAP_BOOTSTRAP: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: readable lines when standard error is a terminal, JSON lines otherwise.
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'expected json or pretty' }).optional(),
  LOG_REQUESTS: z.enum(['0', '1'], { error: 'expected 1 (one info line per answered request) or 0' }).default('0'),
  // /metrics: served on the main port to a bearer of this token, and/or on a port of its own; neither set: not served.
  WARDEN_METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').max(512).optional(),
  WARDEN_METRICS_PORT: integerSetting(1, 65535, 'a port number').optional(),
  // Checked (and parsed) below with the sender: the URL carries the password, so no message ever repeats it.
  WARDEN_SMTP_URL: z.string().optional(),
  WARDEN_SMTP_FROM: z.string().optional(),
  WARDEN_SMTP_TENANTS: z
    .enum(SMTP_TENANT_MODES, { error: `expected ${SMTP_TENANT_MODES.join(', ')}` })
    .default(SECURITY_DEFAULTS.smtpTenants),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL')
    .optional(),
  WARDEN_INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'expected 1–100 letters, digits, ".", "_", ":" or "-"')
    .optional(),
  WARDEN_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'expected 1–100 letters, digits, ".", "_", ":" or "-"')
    .default('warden'),
  WARDEN_LEASE_TTL_MS: integerSetting(1_000, 600_000).default(LEASE_DEFAULTS.ttlMs),
  WARDEN_SIGNUP: z.enum(SIGNUP_MODES).default('invite'),
  WARDEN_OIDC_ISSUER: z.url().optional(),
  WARDEN_OIDC_CLIENT_ID: z.string().min(1).optional(),
  // Never repeated in a message: the secret stays out of logs.
  WARDEN_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  WARDEN_OIDC_NAME: z.string().min(1).max(60).default('OpenID Connect'),
});

/** Every variable the server reads (the CLI's commands read the same). */
export const SETTING_NAMES: readonly string[] = Object.keys(settingsSchema.shape);

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** SQLite durability: `full` syncs every commit (survives power loss), `normal` only at checkpoints. */
  sqliteSync: 'full' | 'normal';
  configFile: string | undefined;
  /** Public address used in links; defaults to http://localhost:PORT. */
  baseUrl: string | undefined;
  logLevel: z.infer<typeof settingsSchema>['LOG_LEVEL'];
  /** LOG_FORMAT: JSON lines, or readable lines (the default when standard error is a terminal). */
  logFormat: 'json' | 'pretty';
  /** LOG_REQUESTS=1: one `info` line per answered request (else they are at `debug`). */
  logRequests: boolean;
  /** Prometheus metrics (docs/operations.md): WARDEN_METRICS_TOKEN and/or WARDEN_METRICS_PORT; undefined: not served. */
  metrics: MetricsSettings | undefined;
  checkRetentionDays: number;
  bucketRetentionDays: number;
  /** Edge probes running at once. */
  concurrency: number;
  /** Organization API requests per key per minute. */
  apiRateLimitPerMinute: number;
  /** How far the V8 old generation may grow past its live size before a full collection, in percent; 0 = V8's default. */
  heapGrowthPercent: number;
  /** WARDEN_YOUNG_GENERATION_MB: the most V8's young generation (both semi-spaces) may grow to, in MiB; 0 = V8's own (32). */
  youngGenerationMb: number;
  /** WARDEN_PAGE_CACHE_MB: MiB the rendered forms of every status page may hold in memory together (least recently read out first). */
  pageCacheMb: number;
  /** Whether the pre-router answers cached page reads and heartbeats itself (the same answers as the app, faster). */
  fastPath: boolean;
  /** WARDEN_TICK_SHAPE_PIN=1: the tick-object shape pinned (runtime/tick-shape.ts); 0 only to measure without it. */
  tickShapePin: boolean;
  /** WARDEN_LOCAL_SETUP=1: while no account exists, a browser on this machine gets the setup code by itself (docs/accounts.md). */
  localSetup: boolean;
  /** Per-client, per-token and per-tenant limits (docs/security.md). */
  security: SecurityOptions;
  /** DNS servers custom-domain verification asks (WARDEN_DNS_SERVERS); the system's resolvers when absent. */
  dnsServers: string[] | undefined;
  /** WARDEN_RDAP_BOOTSTRAP: a newer copy of IANA's RDAP bootstrap file for DNS, used instead of the shipped one. */
  rdapBootstrapFile: string | undefined;
  /** The system SMTP server (WARDEN_SMTP_URL, WARDEN_SMTP_FROM); undefined leaves it to warden.yaml's `smtp:`, if any. */
  smtp: SmtpSettings | undefined;
  /**
   * Cluster mode (docs/cluster.md): DATABASE_URL (PostgreSQL) and REDIS_URL together. Each process has an instance id
   * (WARDEN_INSTANCE_ID, else hostname:pid). Undefined: one process, in-process bus, every runner local.
   */
  cluster: ClusterSettings | undefined;
  /** Accounts (docs/accounts.md): who may sign up, and sign-in with an OpenID Connect provider. */
  accounts: AccountSettings;
}

export interface MetricsSettings {
  /** A bearer of this token may read `/metrics` on the main port (constant-time comparison); never logged. */
  token: string | undefined;
  /** `/metrics` is also served, without a token, on this port of HOST (for a network only Prometheus reaches). */
  port: number | undefined;
}

export interface AccountSettings {
  /** WARDEN_SIGNUP: closed, invite (the default: only with an invitation) or open (a new organization per sign-up). */
  signup: SignupMode;
  /** WARDEN_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET (all three, or none) and _NAME (the button's label). */
  oidc: OidcSettings | undefined;
  /**
   * The organization key of the config file the server applies (not an environment variable: the server sets it from
   * the file): reserved, like `default` and `demo`, so no sign-up takes it first.
   */
  fileOrganizationKey?: string | undefined;
}

export interface ClusterSettings {
  redisUrl: string;
  instanceId: string;
  /** WARDEN_LEASE_TTL_MS: a lease not renewed within it is taken over (renewed every fifth of it); the same on every instance. */
  leaseTtlMs: number;
  /** WARDEN_REDIS_PREFIX: the start of every Redis key and channel name, so two clusters can share one Redis. */
  redisPrefix: string;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Settings> = {}): Settings {
  const blankToUndefined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = settingsSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = formatIssuePath(i.path);
      const variable = String(i.path[0] ?? '');
      return `${name}: ${settingMessage(i, blankToUndefined[variable], SECRET_SETTINGS.has(variable))}`;
    });
    throw new Error(`invalid environment:\n  - ${lines.join('\n  - ')}`);
  }
  const e = parsed.data;
  const smtp = smtpSettings(e.WARDEN_SMTP_URL, e.WARDEN_SMTP_FROM);
  const settings: Settings = {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.WARDEN_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    sqliteSync: e.WARDEN_SQLITE_SYNC,
    configFile: e.WARDEN_CONFIG,
    baseUrl: e.WARDEN_BASE_URL,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stderr.isTTY ? 'pretty' : 'json'),
    logRequests: e.LOG_REQUESTS === '1',
    metrics:
      e.WARDEN_METRICS_TOKEN === undefined && e.WARDEN_METRICS_PORT === undefined
        ? undefined
        : { token: e.WARDEN_METRICS_TOKEN, port: e.WARDEN_METRICS_PORT },
    checkRetentionDays: e.WARDEN_CHECK_RETENTION_DAYS,
    bucketRetentionDays: e.WARDEN_BUCKET_RETENTION_DAYS,
    concurrency: e.WARDEN_CONCURRENCY,
    apiRateLimitPerMinute: e.WARDEN_API_RATE_LIMIT,
    heapGrowthPercent: e.WARDEN_HEAP_GROWTH_PERCENT,
    youngGenerationMb: e.WARDEN_YOUNG_GENERATION_MB,
    pageCacheMb: e.WARDEN_PAGE_CACHE_MB,
    fastPath: e.WARDEN_FAST_PATH === '1',
    localSetup: e.WARDEN_LOCAL_SETUP === '1',
    tickShapePin: e.WARDEN_TICK_SHAPE_PIN === '1',
    security: {
      trustProxy: e.WARDEN_TRUST_PROXY === '1',
      loginAttemptsPerMinute: e.WARDEN_LOGIN_ATTEMPTS_PER_MINUTE,
      pushPerSecond: e.WARDEN_PUSH_RATE,
      pushBurst: e.WARDEN_PUSH_BURST,
      liveConnectionsPerClient: e.WARDEN_LIVE_PER_CLIENT,
      liveConnectionsMax: e.WARDEN_LIVE_MAX,
      probePrivateTargets: e.WARDEN_PROBE_PRIVATE_TARGETS,
      smtpTenants: e.WARDEN_SMTP_TENANTS,
      changePollMs: e.WARDEN_CHANGE_POLL_MS,
    },
    dnsServers: e.WARDEN_DNS_SERVERS,
    rdapBootstrapFile: e.WARDEN_RDAP_BOOTSTRAP,
    smtp,
    cluster: e.REDIS_URL
      ? {
          redisUrl: e.REDIS_URL,
          instanceId: e.WARDEN_INSTANCE_ID ?? `${hostname()}:${process.pid}`,
          leaseTtlMs: e.WARDEN_LEASE_TTL_MS,
          redisPrefix: e.WARDEN_REDIS_PREFIX,
        }
      : undefined,
    accounts: { signup: e.WARDEN_SIGNUP, oidc: oidcSettings(e) },
  };
  if (settings.cluster && !settings.databaseUrl)
    throw new Error(
      'invalid environment:\n  - REDIS_URL: cluster mode needs PostgreSQL too (DATABASE_URL), got REDIS_URL without DATABASE_URL',
    );
  for (const [key, value] of Object.entries(overrides))
    if (value !== undefined) (settings as unknown as Record<string, unknown>)[key] = value;
  return settings;
}

/**
 * A whole number from the environment, in [min, max]: "PORT: expected a port number from 0 to 65535, got "abc"" rather
 * than zod's "expected number, received NaN". Decimal digits only: "8080.5", "1e3" and "0x50" are mistakes.
 */
function integerSetting(min: number, max: number, what = 'an integer') {
  return numberSetting(min, max, what, /^\s*-?\d+\s*$/);
}

/** A number from the environment, in [min, max], with a message that says what was expected and what was given. */
function numberSetting(min: number, max: number, what = 'a number', form = /^\s*-?(\d+\.?\d*|\.\d+)\s*$/) {
  return z.string().transform((given, ctx) => {
    const value = Number(given);
    if (form.test(given) && value >= min && value <= max) return value;
    ctx.addIssue({ code: 'custom', message: `expected ${what} from ${min} to ${max}, got ${JSON.stringify(given)}` });
    return z.NEVER;
  });
}
