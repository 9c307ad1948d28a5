// A store whose queries a test can wait for: with fake timers, time must not move on while a query is still in flight.
import type { Store } from '../src/store/index.js';

export interface TrackedStore {
  store: Store;
  /** Resolves once no query started through `store` is running, including those their results went on to start. */
  idle(): Promise<void>;
}

/**
 * Fake timers move time at once, but a query takes real time (PostgreSQL answers over a socket): a test that advances
 * time in steps waits for `idle()` between them, so every dialect sees the same order of events as a fast one would.
 */
export function trackStore(inner: Store): TrackedStore {
  const running = new Set<Promise<unknown>>();
  const track = (value: unknown): unknown => {
    if (!(value instanceof Promise)) return value;
    running.add(value);
    const done = () => running.delete(value);
    value.then(done, done);
    return value;
  };
  const tracked = <T extends object>(target: T): T => {
    const wrapped = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (typeof value !== 'function' && (typeof value !== 'object' || value === null)) return value;
        if (!wrapped.has(key))
          wrapped.set(
            key,
            typeof value === 'function' ? (...args: unknown[]) => track(value.apply(object, args)) : tracked(value),
          );
        return wrapped.get(key);
      },
    });
  };
  return {
    store: tracked(inner),
    async idle() {
      for (;;) {
        // One turn of the event loop: timers that fired and queries that answered start what follows them first.
        await new Promise((resolve) => setImmediate(resolve));
        if (running.size === 0) return;
        await Promise.allSettled([...running]);
      }
    },
  };
}
