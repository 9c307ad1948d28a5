import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { createChangeWatch } from './change-watch.js';

/** A change counter the test moves, and a reload the test finishes by hand. */
function harness() {
  let version = 1;
  const store = { changes: { current: async () => version } } as unknown as Store;
  const events: string[] = [];
  const pending: (() => void)[] = [];
  let failNext = false;
  const lines: { msg: string }[] = [];
  const watch = createChangeWatch({
    store,
    logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) }),
    everyMs: 60_000,
    forget: () => void events.push(`forget@${version}`),
    reload: () => {
      events.push(`reload@${version}`);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('database is locked'));
      }
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  });
  return {
    watch,
    events,
    lines,
    move: () => void version++,
    failNextReload: () => {
      failNext = true;
    },
    /** Finishes the oldest reload still running. */
    finish: async () => {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('the change watch', () => {
  it('does nothing while the counter stands still', async () => {
    const h = harness();
    await h.watch.prime();
    expect(await h.watch.poll()).toBe(false);
    expect(h.events).toEqual([]);
  });

  it('forgets at once on every move, even while a slow reload runs, and reloads once more for the moves meanwhile', async () => {
    const h = harness();
    await h.watch.prime();
    h.move();
    const first = h.watch.poll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events).toEqual(['forget@2', 'reload@2']);
    // The reload has not finished; two more writes land. Each poll forgets (a replaced push token stops working now).
    h.move();
    const second = h.watch.poll();
    await new Promise((resolve) => setImmediate(resolve));
    h.move();
    const third = h.watch.poll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events).toEqual(['forget@2', 'reload@2', 'forget@3', 'forget@4']);
    await h.finish();
    // One more reload covers both moves; the polls settle only once it is done.
    expect(h.events).toEqual(['forget@2', 'reload@2', 'forget@3', 'forget@4', 'reload@4']);
    let settled = false;
    void Promise.all([first, second, third]).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await h.finish();
    expect(await Promise.all([first, second, third])).toEqual([true, true, true]);
    expect(await h.watch.poll()).toBe(false);
  });

  it('retries a failed reload at the next poll even if nothing else was written', async () => {
    const h = harness();
    await h.watch.prime();
    h.move();
    h.failNextReload();
    expect(await h.watch.poll()).toBe(true);
    expect(h.lines.map((line) => line.msg)).toContain('reloading after another process wrote failed');
    const retried = h.watch.poll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events).toEqual(['forget@2', 'reload@2', 'forget@2', 'reload@2']);
    await h.finish();
    expect(await retried).toBe(true);
    expect(await h.watch.poll()).toBe(false);
  });
});
