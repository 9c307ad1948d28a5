// On PostgreSQL a commit that carried several results lets the next wait a moment for more (ingest.ts, COMMIT_LINGER_MS):
// the clients just answered send their next results within it, and share one commit instead of one each. With many
// results waiting, the next commit starts at once, before the last one's callers are answered, and each is answered
// only after its own commit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import { COMMIT_LINGER_FILL, createIngest, type Ingest } from './ingest.js';

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

  it('starts the next commit of many waiting results before answering the last, each answered after its own', async () => {
    const push = (at: number) => ingest.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(now);
    const states = opened.store.optimisticIngest as NonNullable<typeof opened.store.optimisticIngest>;
    const write = states.write.bind(states);
    const log: string[] = [];
    let commits = 0;
    states.write = async (checks, rows) => {
      const n = ++commits;
      log.push(`commit ${n} starts`);
      const written = await write(checks, rows);
      log.push(`commit ${n} ends`);
      return written;
    };
    batches.length = 0;
    const answered = (name: string) => (outcome: unknown) => {
      log.push(`${name} answered`);
      return outcome;
    };
    const first = [push(now + 1), push(now + 2)].map((p) => p.then(answered('first')));
    // More than COMMIT_LINGER_FILL results arrive while the first two are committed.
    await nextTurn();
    const more = Array.from({ length: COMMIT_LINGER_FILL + 8 }, (_, i) => push(now + 3 + i).then(answered('second')));
    const outcomes = await Promise.all([...first, ...more]);
    expect(outcomes.every((o) => (o as { stored: boolean }).stored)).toBe(true);
    expect(batches).toEqual([2, COMMIT_LINGER_FILL + 8]);
    const at = (entry: string) => log.indexOf(entry);
    // The second commit was under way before the first two were answered, and nobody was answered before their commit.
    expect(at('commit 2 starts')).toBeLessThan(at('first answered'));
    expect(at('commit 1 ends')).toBeLessThan(at('first answered'));
    expect(at('commit 2 ends')).toBeLessThan(at('second answered'));
    expect(log.filter((e) => e === 'first answered')).toHaveLength(2);
    expect(await opened.store.checks.list(hb.id, { from: 0, to: now + 100, limit: 100 })).toHaveLength(
      3 + COMMIT_LINGER_FILL + 8,
    );
  });
});
