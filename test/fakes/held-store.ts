// A store that holds the server's start-up back where a slow database would: once migrated, every call through it
// waits until the test lets go (but the readiness probe's ping, which must keep answering), so the time between
// listening and applying the configuration lasts as long as a test needs.
import type { Store } from '../../src/store/index.js';

/** What is never held: /readyz's ping and what the composition root reads off the store (location, pool use). */
const NEVER_HELD = new Set<PropertyKey>(['ping', 'dialect', 'location', 'poolUse', 'close', 'migrate']);

export interface HeldStore {
  store: Store;
  /** Resolves once the store was migrated and a call is waiting (the start-up has reached its first query). */
  reached(): Promise<void>;
  /** Lets every held call and the ones after it through. */
  release(): void;
}

export function holdAfterMigrating(inner: Store): HeldStore {
  let holding = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const firstHeld = new Promise<void>((resolve) => (reached = resolve));
  const wrap = <T extends object>(target: T, top: boolean): T => {
    const wrapped = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (typeof value !== 'function' && (typeof value !== 'object' || value === null)) return value;
        if (top && NEVER_HELD.has(key)) {
          if (key !== 'migrate' || typeof value !== 'function')
            return typeof value === 'function' ? value.bind(object) : value;
          return async (...args: unknown[]) => {
            const report = await value.apply(object, args);
            holding = true;
            return report;
          };
        }
        if (!wrapped.has(key))
          wrapped.set(
            key,
            typeof value === 'function'
              ? (...args: unknown[]) => {
                  if (!holding) return value.apply(object, args);
                  reached();
                  return released.then(() => value.apply(object, args));
                }
              : wrap(value as object, false),
          );
        return wrapped.get(key);
      },
    });
  };
  return { store: wrap(inner, true), reached: () => firstHeld, release };
}
