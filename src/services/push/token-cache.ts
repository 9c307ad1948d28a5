// Which monitor a push token names, remembered by the token's hash so a busy heartbeat costs no lookup; forgotten on every monitor change.
import type { Bus } from '../../bus/bus.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/index.js';

export const PUSH_TOKEN_CACHE = {
  /**
   * How long a token is trusted without a lookup. Changes made in this process (API: new token, monitor paused or
   * deleted) publish monitors.changed and take effect at once; changes made by another process (the CLI) within this.
   */
  ttlMs: 10_000,
  /** Tokens remembered at most; the oldest is forgotten first. */
  maxEntries: 100_000,
} as const;

export interface PushTokenCache {
  /** The enabled push monitor holding the token with this hash, or null (unknown tokens are not remembered). */
  monitorFor(tokenHash: string): Promise<string | null>;
  forget(tokenHash: string): void;
  /** Forgets every token: another process changed monitors (the change counter moved). */
  clear(): void;
  close(): void;
}

export function createPushTokenCache(deps: { store: Store; bus: Bus; clock: Clock }): PushTokenCache {
  const entries = new Map<string, { monitorId: string; expiresAt: number }>();
  /**
   * Moves on every clear: a lookup that started before one may have read what the change replaced, and must not
   * remember it (a replaced token would then keep working for the entry's whole TTL).
   */
  let generation = 0;
  const clear = () => {
    entries.clear();
    generation++;
  };
  const unsubscribe = deps.bus.subscribe('monitors.changed', clear);
  return {
    async monitorFor(tokenHash) {
      const now = deps.clock.now();
      const hit = entries.get(tokenHash);
      if (hit && hit.expiresAt > now) return hit.monitorId;
      const started = generation;
      const monitor = await deps.store.monitors.findByPushTokenHash(tokenHash);
      if (started !== generation) return monitor?.runOn === 'push' && monitor.enabled ? monitor.id : null;
      if (monitor?.runOn !== 'push' || !monitor.enabled) {
        entries.delete(tokenHash);
        return null;
      }
      if (entries.size >= PUSH_TOKEN_CACHE.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(tokenHash, { monitorId: monitor.id, expiresAt: now + PUSH_TOKEN_CACHE.ttlMs });
      return monitor.id;
    },
    forget: (tokenHash) => void entries.delete(tokenHash),
    clear,
    close: unsubscribe,
  };
}
