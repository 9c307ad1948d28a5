// On PostgreSQL a commit that carried several results lets the next wait a moment for more (ingest.ts, COMMIT_LINGER_MS):
// the clients just answered send their next results within it, and share one commit instead of one each.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import { createIngest, type Ingest } from './ingest.js';

const postgres = dialects.find((d) => d.name === 'postgres');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.skipIf(!postgres?.available)('group commit on postgres', () => {
  let opened: OpenedStore;
  let ingest: Ingest;
  let hb: Monitor;
  const batches: number[] = [];
  const now = Date.UTC(2026, 10, 30, 12, 0, 0);

  beforeEach(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    hb = (
      await seed(opened.store, 'organization: { name: T }\nmonitors:\n  - { key: hb, name: HB, type: heartbeat }', now)
    ).monitors.hb as Monitor;
    batches.length = 0;
    const metrics = { ingestCommitted: (n: number) => batches.push(n), watchIngestQueue: () => {} };
    ingest = createIngest({
      store: opened.store,
      bus: createInProcessBus(),
      clock: { now: () => now },
      logger: createLogger('silent'),
      metrics: metrics as unknown as WardenMetrics,
    });
  });
  afterEach(async () => {
    await ingest?.close();
    await opened?.cleanup();
  });

  it('lets the results of clients answered a moment ago share the next commit', async () => {
    const push = (at: number) => ingest.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(now); // unknown → up: the batches below only store checks
    batches.length = 0;
    const [a, b] = [push(now + 1), push(now + 2)];
    // A third client's push arrives while those two are being committed, a fourth client's a turn after the answer.
    await nextTurn();
    await nextTurn();
    const c = push(now + 3);
    const d = a.then(nextTurn).then(() => push(now + 4));
    expect(await Promise.all([a, b, c, d])).toMatchObject([{ stored: true }, { stored: true }, { stored: true }, {}]);
    await ingest.flush();
    expect(batches).toEqual([2, 2]);
    expect(await opened.store.checks.list(hb.id, { from: 0, to: now + 10, limit: 10 })).toHaveLength(5);
  });
});
