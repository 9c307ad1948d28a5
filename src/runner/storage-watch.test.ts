import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StorageFault } from '../domain/errors.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { STORAGE_WATCH, watchStorage } from './storage-watch.js';

/** The part of a store the watch reads: its availability, driven by the test. */
function storeOfFaults() {
  const listeners = new Set<(fault: StorageFault, cause: unknown) => void>();
  let writes = 0;
  const store = {
    location: 'sqlite:/srv/warden/warden.db',
    availability: {
      onFault(listener: (fault: StorageFault, cause: unknown) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      committedWrites: () => writes,
    },
  } as unknown as Store;
  return {
    store,
    fail: (fault: StorageFault = 'full') => {
      for (const listener of listeners)
        listener(fault, Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    },
    write: () => void writes++,
    listeners: () => listeners.size,
  };
}

function logLines() {
  const lines: { level: number; msg: string; outageMs?: number; failures?: number }[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('the storage watch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes one error line for an outage however many operations fail, and one info line once writes go through', async () => {
    const db = storeOfFaults();
    const { logger, lines } = logLines();
    const watch = watchStorage({ store: db.store, logger, clock: { now: () => Date.now() } });
    for (let i = 0; i < 500; i++) db.fail();
    await vi.advanceTimersByTimeAsync(10_000);
    db.fail();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      fault: 'full',
      database: 'sqlite:/srv/warden/warden.db',
      err: { code: 'SQLITE_FULL' },
    });
    expect(lines[0]?.msg).toMatch(/^storage unavailable: the database is full .*503 with Retry-After: 5/);

    // Nothing written yet: still down, however quiet.
    await vi.advanceTimersByTimeAsync(STORAGE_WATCH.quietMs * 2);
    expect(lines).toHaveLength(1);
    db.write();
    await vi.advanceTimersByTimeAsync(STORAGE_WATCH.quietMs + STORAGE_WATCH.checkEveryMs);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(/^storage available again after \d+\.\d s/),
      failures: 501,
    });
    watch.stop();
    expect(db.listeners()).toBe(0);
  });

  it('does not call an outage over while writes and failures alternate, and reminds once a minute', async () => {
    const db = storeOfFaults();
    const { logger, lines } = logLines();
    const watch = watchStorage({ store: db.store, logger, clock: { now: () => Date.now() } });
    db.fail();
    for (let second = 0; second < 130; second++) {
      db.write();
      await vi.advanceTimersByTimeAsync(STORAGE_WATCH.quietMs / 2);
      db.fail();
      await vi.advanceTimersByTimeAsync(1000 - STORAGE_WATCH.quietMs / 2);
    }
    expect(lines.map((l) => l.level)).toEqual([50, 40, 40]);
    expect(lines[1]?.msg).toBe('storage still unavailable: the database is full (its disk, or its size limit)');
    watch.stop();
  });

  it('starts over with the next outage', async () => {
    const db = storeOfFaults();
    const { logger, lines } = logLines();
    const watch = watchStorage({ store: db.store, logger, clock: { now: () => Date.now() } });
    db.fail('unreachable');
    db.write();
    await vi.advanceTimersByTimeAsync(STORAGE_WATCH.quietMs + STORAGE_WATCH.checkEveryMs);
    db.fail('busy');
    db.write();
    await vi.advanceTimersByTimeAsync(STORAGE_WATCH.quietMs + STORAGE_WATCH.checkEveryMs);
    expect(lines.map((l) => l.level)).toEqual([50, 30, 50, 30]);
    expect(lines[0]?.msg).toMatch(/^storage unavailable: the database cannot be reached/);
    expect(lines[2]?.msg).toMatch(/^storage unavailable: the database is locked by another process/);
    expect(lines[3]).toMatchObject({ fault: 'busy', failures: 1 });
    watch.stop();
  });
});
