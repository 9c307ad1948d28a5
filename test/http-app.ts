// An in-process app over a test store with an injected clock, for route tests with app.request() (no port).

import type { Bus } from '../src/bus/bus.js';
import { createInProcessBus } from '../src/bus/bus.js';
import type { Clock } from '../src/domain/clock.js';
import { type App, type AppDeps, createApp } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';
import { createIngest, type Ingest } from '../src/runner/ingest.js';
import type { Store } from '../src/store/connect.js';

export interface TestApp {
  app: App;
  ingest: Ingest;
  bus: Bus;
  close(): Promise<void>;
}

/** Parts a test does not exercise (the page cache, for push and relay tests) are stubs unless given. */
export function createTestApp(options: { store: Store; clock: Clock; overrides?: Partial<AppDeps> }): TestApp {
  const bus = createInProcessBus();
  const logger = createLogger('silent');
  const ingest = createIngest({ db: options.store.db, bus, clock: options.clock, logger });
  const app = createApp({
    store: options.store,
    bus,
    clock: options.clock,
    logger,
    ingest,
    pages: {} as AppDeps['pages'],
    pageAccess: {} as AppDeps['pageAccess'],
    baseUrl: 'http://warden.test',
    isReady: () => true,
    ...options.overrides,
  });
  return { app, ingest, bus, close: () => ingest.close() };
}

/** An app for reading the OpenAPI document only: nothing behind it. */
export function createDocumentOnlyApp(): App {
  return createTestApp({ store: {} as Store, clock: { now: () => 0 } }).app;
}
