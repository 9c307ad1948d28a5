// An in-process Warden for route tests: the same composition as the server, a test store, a settable clock, no port.

import { composeWarden, type WardenParts } from '../src/compose.js';
import type { Monitor } from '../src/domain/monitor.js';
import { createLogger } from '../src/logger.js';
import { seed } from './seed.js';
import type { DialectCase, OpenedStore } from './store-dialects.js';

export interface Harness extends WardenParts {
  opened: OpenedStore;
  clock: { now(): number; set(ms: number): void; advance(ms: number): void };
  monitors: Record<string, Monitor>;
  organizationId: string;
  request(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  close(): Promise<void>;
}

export const HARNESS_BASE_URL = 'http://warden.test';

export async function startHarness(
  dialect: DialectCase,
  yaml: string,
  start = Date.UTC(2026, 10, 20, 12),
): Promise<Harness> {
  const opened = await dialect.open();
  let now = start;
  const clock = { now: () => now, set: (ms: number) => (now = ms), advance: (ms: number) => (now += ms) };
  const parts = composeWarden({
    store: opened.store,
    clock,
    logger: createLogger('silent'),
    baseUrl: () => HARNESS_BASE_URL,
  });
  const { report, monitors } = await seed(opened.store, yaml, now);
  await parts.pages.start();
  return {
    ...parts,
    opened,
    clock,
    monitors,
    organizationId: report.organization.id,
    request(path, init = {}) {
      const { host, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('host', host ?? 'warden.test');
      return Promise.resolve(parts.app.request(`http://${host ?? 'warden.test'}${path}`, { ...rest, headers }));
    },
    async close() {
      await parts.pages.stop();
      await parts.ingest.close();
      await opened.cleanup();
    },
  };
}
