// The Warden the dashboard bench drives: served on a port with 10,000 monitors (some with a day of checks, so the list
// draws sparklines), a signed-in user and the session Chromium carries.
import type { Browser } from 'playwright-core';
import { createInProcessBus } from '../src/bus/bus.js';
import { readSettings } from '../src/config/settings.js';
import { type CheckRow, HOUR_MS } from '../src/domain/check.js';
import { createLogger } from '../src/logger.js';
import { startWarden, type Warden } from '../src/main.js';
import { createApiKey } from '../src/services/api-keys/create.js';
import type { Store } from '../src/store/index.js';
import { signedInUser } from '../test/accounts.js';
import { launchChromium } from '../test/browser.js';
import { dialects, type OpenedStore } from '../test/store-dialects.js';

export const DASHBOARD_MONITORS = Number(process.env.BENCH_DASHBOARD_MONITORS ?? 10_000);
const STATES = ['up', 'up', 'up', 'up', 'degraded', 'down', 'unknown'] as const;
/** Monitors with a day of checks, so the first screens of the list draw sparklines. */
const WITH_HISTORY = 400;

export interface ServedDashboard {
  url: string;
  /** The session cookie's value of a signed-in owner. */
  session: string;
  /** A read key, to ask the API what a search should show. */
  apiKey: string;
  browser: Browser;
  close(): Promise<void>;
}

/** SQLite, seeded through the store, served by a real Warden (startWarden) on a free port, and a Chromium. */
export async function serveDashboard(): Promise<ServedDashboard> {
  const sqlite = dialects.find((d) => d.name === 'sqlite');
  if (!sqlite) throw new Error('no SQLite dialect');
  const opened: OpenedStore = await sqlite.open();
  const now = Date.now();
  const started = performance.now();
  const organizationId = await seedMonitors(opened.store, now);
  const context = {
    store: opened.store,
    bus: createInProcessBus(),
    clock: { now: () => Date.now() },
    logger: createLogger('silent'),
    organizationId,
  };
  const owner = await signedInUser(context, [{ organizationId, role: 'owner' }], { name: 'Bench Owner' });
  const { secret } = await createApiKey(context, { name: 'bench', scope: 'read' });
  console.log(
    `  seeded ${DASHBOARD_MONITORS} monitors (${WITH_HISTORY} with a day of checks) in ${Math.round(performance.now() - started)} ms`,
  );
  const warden: Warden = await startWarden({
    settings: readSettings({
      ...opened.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      WARDEN_API_RATE_LIMIT: '100000',
    }),
    logger: createLogger('silent'),
  });
  const browser = await launchChromium({ whole: true });
  return {
    url: warden.url.replace('localhost', '127.0.0.1'),
    session: owner.token,
    apiKey: secret,
    browser,
    async close() {
      await browser.close();
      await warden.close();
      await opened.cleanup();
    },
  };
}

/**
 * One organization of heartbeat monitors (nothing is probed, so serving them reaches no network) with states and
 * latencies spread over them, and a day of checks, one every 20 minutes, for the first WITH_HISTORY.
 */
async function seedMonitors(store: Store, now: number): Promise<string> {
  const organizationId = 'org_dashbench';
  await store.organizations.upsert({ id: organizationId, key: 'bench', name: 'Bench' }, now);
  const ids = Array.from({ length: DASHBOARD_MONITORS }, (_, i) => `mon_${String(i).padStart(5, '0')}`);
  await store.transaction(async (tx) => {
    for (const [i, id] of ids.entries())
      await tx.monitors.insert(
        {
          id,
          organizationId,
          key: `lobby-${i}`,
          name: `Lobby ${i}`,
          type: 'heartbeat',
          config: { graceSec: 7 * 24 * 3600 },
          intervalSec: 60,
          timeoutMs: 5000,
          runOn: 'push',
          relayId: null,
          enabled: true,
          retries: 0,
          degradedLatencyMs: null,
          tags: [['eu', 'us', 'asia'][i % 3] as string],
          managedBy: 'api',
          pushToken: null,
        },
        now - 2 * 24 * HOUR_MS,
      );
    const states = ids.map((id, i) => {
      const state = STATES[i % STATES.length] as (typeof STATES)[number];
      const lastResult = JSON.stringify({
        checkedAt: now,
        ok: state !== 'down',
        latencyMs: state === 'down' ? null : (i * 37) % 900,
        message: null,
        error: null,
        data: null,
        source: 'push',
      });
      return {
        id,
        organizationId,
        retries: 0,
        degradedLatencyMs: null,
        state,
        stateSince: now - i * 1000,
        failureStreak: 0,
        lastCheckAt: now,
        lastResult,
        playerAlerts: null,
        expectedRestart: null,
        playerAlertsState: null,
      };
    });
    await tx.checks.write([], states);
  });
  const history: CheckRow[] = [];
  for (const id of ids.slice(0, WITH_HISTORY))
    for (let t = now - 24 * HOUR_MS; t < now; t += 20 * 60_000) {
      const ok = Math.abs(Math.sin(t + id.length)) > 0.05;
      history.push({
        monitorId: id,
        checkedAt: t,
        ok,
        degraded: false,
        latencyMs: ok ? 20 + (t % 180) : null,
        message: null,
        error: ok ? null : 'missed',
        data: null,
        source: 'push',
        resultId: null,
      });
    }
  for (let i = 0; i < history.length; i += 5000) await store.checks.write(history.slice(i, i + 5000), []);
  return organizationId;
}
