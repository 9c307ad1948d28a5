// Which monitor a push token names, remembered by the token's hash so a heartbeat costs no lookup; forgotten on every
// monitor change. The tokens missed in one turn of the event loop are looked up together, in one query.
import type { Bus } from '../../bus/bus.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/index.js';

export const PUSH_TOKEN_CACHE = {
  /**
   * How long a token is trusted without a lookup: a backstop. Changes made in this process (API: new token, monitor
   * paused or deleted) publish monitors.changed and take effect at once; those made by another process (a cluster's
   * other members, the CLI) move the change counter, which every process polls (WARDEN_CHANGE_POLL_MS, 1 s) and
   * which clears this cache. A monitor pinged once a minute, the usual heartbeat, is then looked up once in ten
   * minutes instead of at every ping.
   */
  ttlMs: 10 * 60_000,
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
  /** Lookups not sent yet (they go at the end of this turn), and those sent since the last clear: shared by hash. */
  let gathering: { hashes: Set<string>; answers: Promise<Map<string, string>> } | null = null;
  let asked = new Map<string, Promise<string | null>>();
  const clear = () => {
    entries.clear();
    asked = new Map();
    gathering = null;
    generation++;
  };
  const unsubscribe = deps.bus.subscribe('monitors.changed', clear);

  /** The answers of the query this turn's misses go into, the hash added to it. */
  function gather(tokenHash: string): Promise<Map<string, string>> {
    if (!gathering) {
      const hashes = new Set<string>();
      const answers = new Promise<Map<string, string>>((resolve, reject) => {
        setImmediate(() => {
          if (gathering?.hashes === hashes) gathering = null;
          deps.store.monitors.pushTargets([...hashes]).then(resolve, reject);
        });
      });
      gathering = { hashes, answers };
    }
    gathering.hashes.add(tokenHash);
    return gathering.answers;
  }

  async function lookUp(tokenHash: string): Promise<string | null> {
    const started = generation;
    const now = deps.clock.now();
    const monitorId = (await gather(tokenHash)).get(tokenHash) ?? null;
    if (started === generation) {
      if (monitorId !== null) {
        if (entries.size >= PUSH_TOKEN_CACHE.maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(tokenHash, { monitorId, expiresAt: now + PUSH_TOKEN_CACHE.ttlMs });
      } else entries.delete(tokenHash);
    }
    return monitorId;
  }

  return {
    monitorFor(tokenHash) {
      const hit = entries.get(tokenHash);
      if (hit && hit.expiresAt > deps.clock.now()) return Promise.resolve(hit.monitorId);
      const shared = asked.get(tokenHash);
      if (shared) return shared;
      const answer = lookUp(tokenHash);
      asked.set(tokenHash, answer);
      // Shared until it settles: then the cache answers, or (a failed lookup) the next ping asks again.
      const settled = () => {
        if (asked.get(tokenHash) === answer) asked.delete(tokenHash);
      };
      answer.then(settled, settled);
      return answer;
    },
    forget: (tokenHash) => void entries.delete(tokenHash),
    clear,
    close: unsubscribe,
  };
}
