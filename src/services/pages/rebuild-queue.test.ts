// When the page cache rebuilds the pages marked dirty: at once after a quiet spell, else once at the end of the
// debounce window. Timed with fake timers: the rule itself, apart from how long a rebuild takes on a busy machine.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRebuildQueue } from './rebuild-queue.js';

const DEBOUNCE_MS = 250;

describe('the rebuild queue', () => {
  let rebuilt: string[][];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    rebuilt = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rebuilds at once after a quiet spell, the pages marked in the same turn together and once each', () => {
    const queue = createRebuildQueue(DEBOUNCE_MS, (ids) => rebuilt.push(ids));
    queue.mark('a');
    queue.mark('b');
    queue.mark('a');
    expect(rebuilt).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(rebuilt).toEqual([['a', 'b']]);
  });

  it('holds what is marked within the window until the window ends, then rebuilds it once', () => {
    const queue = createRebuildQueue(DEBOUNCE_MS, (ids) => rebuilt.push(ids));
    queue.mark('a');
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(100);
    queue.mark('a');
    queue.mark('b');
    queue.mark('a');
    vi.advanceTimersByTime(DEBOUNCE_MS - 101);
    expect(rebuilt).toEqual([['a']]);
    vi.advanceTimersByTime(1);
    expect(rebuilt).toEqual([['a'], ['a', 'b']]);
  });

  it('rebuilds at once again once a whole window has passed quietly', () => {
    const queue = createRebuildQueue(DEBOUNCE_MS, (ids) => rebuilt.push(ids));
    queue.mark('a');
    vi.advanceTimersByTime(DEBOUNCE_MS + 50);
    queue.mark('a');
    vi.advanceTimersByTime(0);
    expect(rebuilt).toEqual([['a'], ['a']]);
  });

  it('rebuilds nothing once stopped, not even what was waiting', () => {
    const queue = createRebuildQueue(DEBOUNCE_MS, (ids) => rebuilt.push(ids));
    queue.mark('a');
    vi.advanceTimersByTime(0);
    queue.mark('b');
    queue.stop();
    queue.mark('c');
    vi.advanceTimersByTime(DEBOUNCE_MS * 4);
    expect(rebuilt).toEqual([['a']]);
  });
});
