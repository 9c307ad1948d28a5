// What a start has made so far (src/main.ts): each lifecycle part sets what it makes, and the parts after it read it.
import type { RedisConnections } from '../cluster/redis.js';
import type { ConfigFile } from '../config/file-schema.js';
import type { Settings } from '../config/settings.js';
import type { Clock } from '../domain/clock.js';
import type { LocalSetupListener } from '../http/local-setup.js';
import type { MetricsListener } from '../http/metrics.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import type { SmtpSettings } from '../notify/mail/smtp.js';
import type { StorageWatch } from '../runner/storage-watch.js';
import type { Store } from '../store/index.js';
import type { StartConfig } from './first-run.js';
import type { HttpServer } from './http-server.js';
import type { DomainOptions } from './options.js';
import type { ServiceParts } from './services.js';

/** What a start has made so far: each part sets what it makes, and the parts after it read it (they start in order). */
export interface Boot {
  settings: Settings;
  clock: Clock;
  logger: Logger;
  fileConfig: ConfigFile | null;
  metrics: WardenMetrics | undefined;
  smtp: SmtpSettings | undefined;
  domains: DomainOptions | undefined;
  /** The public address (WARDEN_BASE_URL, else the listening one once it listens), without a trailing slash. */
  baseUrl: string;
  ready: boolean;
  store?: Store;
  storageWatch?: StorageWatch;
  redis: RedisConnections | null;
  services?: ServiceParts;
  http?: HttpServer;
  metricsListener: MetricsListener | null;
  /** WARDEN_LOCAL_SETUP's listener, while no account existed at start. */
  localSetup?: LocalSetupListener;
  port: number;
  url: string;
  applied: StartConfig;
  stopDemo: () => void;
}

/** A part's product, read by a later part: absent, the lifecycle's order is wrong (a programming error). */
export function made<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not made yet`);
  return value;
}
