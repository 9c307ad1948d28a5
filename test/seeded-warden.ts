// A real Warden (startWarden: node:http, the pre-router, the app) on port 0 over a fresh store of one dialect, seeded
// from a config text through the real config sync, with an API key of each scope. Settings come from env, as in
// production; the clock may be the test's (every process of it shares one).
import { readSettings } from '../src/config/settings.js';
import type { Clock } from '../src/domain/clock.js';
import type { Monitor } from '../src/domain/monitor.js';
import { createLogger, type Logger } from '../src/logger.js';
import { startWarden, type Warden } from '../src/main.js';
import { createApiKey } from '../src/services/api-keys/create.js';
import { seed, testContext } from './seed.js';
import type { DialectCase, OpenedStore } from './store-dialects.js';

export interface SeededWarden {
  warden: Warden;
  url: string;
  opened: OpenedStore;
  organizationId: string;
  monitors: Record<string, Monitor>;
  readKey: string;
  writeKey: string;
  /** Another server process on the same database (its own limits), closed with this one. */
  another(env?: Record<string, string>): Promise<Warden>;
  close(): Promise<void>;
}

/**
 * `logger`: where the server logs (a test reading its lines); TEST_LOG's level to standard error, or nothing, by default.
 * `clock`: the test's (every process of it shares one).
 */
export async function startSeededWarden(
  dialect: DialectCase,
  yaml: string,
  env: Record<string, string> = {},
  options: { logger?: Logger; clock?: Clock } = {},
): Promise<SeededWarden> {
  const opened = await dialect.open();
  const { report, monitors } = await seed(opened.store, yaml, Date.now());
  const organizationId = report.organization.id;
  const context = { ...testContext(opened.store), organizationId };
  const key = async (scope: 'read' | 'write') => (await createApiKey(context, { name: scope, scope })).secret;
  const [readKey, writeKey] = [await key('read'), await key('write')];
  const start = (extra: Record<string, string>) =>
    startWarden({
      settings: readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...extra }),
      logger: options.logger ?? createLogger(process.env.TEST_LOG ?? 'silent'),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  const warden = await start(env);
  const others: Warden[] = [];
  return {
    warden,
    url: warden.url.replace('localhost', '127.0.0.1'),
    opened,
    organizationId,
    monitors,
    readKey,
    writeKey,
    async another(extra = {}) {
      const other = await start(extra);
      others.push(other);
      return other;
    },
    async close() {
      for (const other of others) await other.close();
      await warden.close();
      await opened.cleanup();
    },
  };
}
