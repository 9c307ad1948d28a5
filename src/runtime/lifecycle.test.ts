import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createLifecycle, type Part } from './lifecycle.js';

const logger = createLogger('silent');

/** Parts that write what they do into `log`; `failing` makes that part's start throw. */
function parts(names: string[], log: string[], failing?: string): Part[] {
  return names.map((name) => ({
    name,
    start: async () => {
      if (name === failing) throw new Error(`${name} failed`);
      log.push(`start ${name}`);
    },
    stop: async () => void log.push(`stop ${name}`),
  }));
}

describe('a lifecycle', () => {
  it('starts its parts in order and stops them in reverse, once', async () => {
    const log: string[] = [];
    const lifecycle = createLifecycle(parts(['a', 'b', 'c'], log), { logger, stopBudgetMs: 1_000 });
    await lifecycle.start();
    expect(lifecycle.running()).toEqual(['a', 'b', 'c']);
    await Promise.all([lifecycle.stop(), lifecycle.stop()]);
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
    expect(lifecycle.running()).toEqual([]);
    await expect(lifecycle.start()).rejects.toThrow('stopped');
  });

  it('stops what had started when a start fails, and fails with that start’s error', async () => {
    const log: string[] = [];
    const lifecycle = createLifecycle(parts(['a', 'b', 'c'], log, 'c'), { logger, stopBudgetMs: 1_000 });
    await expect(lifecycle.start()).rejects.toThrow('c failed');
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('fails the start where afterStart throws, stopping the part that had just started too', async () => {
    const log: string[] = [];
    const lifecycle = createLifecycle(parts(['a', 'b', 'c'], log), {
      logger,
      stopBudgetMs: 1_000,
      afterStart: (name) => {
        if (name === 'b') throw new Error('injected');
      },
    });
    await expect(lifecycle.start()).rejects.toThrow('injected');
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('stops the next parts when one fails to stop or outlasts the budget', async () => {
    const log: string[] = [];
    const list: Part[] = [
      ...parts(['store'], log),
      { name: 'stuck', start: () => {}, stop: () => new Promise<void>(() => {}) },
      { name: 'broken', start: () => {}, stop: () => Promise.reject(new Error('cannot stop')) },
    ];
    const lifecycle = createLifecycle(list, { logger, stopBudgetMs: 50 });
    await lifecycle.start();
    const began = performance.now();
    await lifecycle.stop();
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(log).toEqual(['start store', 'stop store']);
  });

  it('stops a part that finished starting after a stop was asked for, and fails the start', async () => {
    const log: string[] = [];
    let release!: () => void;
    const slow: Part = {
      name: 'slow',
      start: () => new Promise<void>((resolve) => (release = resolve)),
      stop: () => void log.push('stop slow'),
    };
    const lifecycle = createLifecycle([...parts(['a'], log), slow, ...parts(['c'], log)], {
      logger,
      stopBudgetMs: 1_000,
    });
    const starting = lifecycle.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = lifecycle.stop();
    release();
    await expect(starting).rejects.toThrow('stopped while starting');
    await stopping;
    expect(log).toEqual(['start a', 'stop a', 'stop slow']);
  });

  it('refuses two parts of one name', () => {
    expect(() => createLifecycle(parts(['a', 'a'], []), { logger, stopBudgetMs: 1 })).toThrow('two parts are named a');
  });
});
