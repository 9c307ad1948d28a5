// The push token cache: a lookup that overlapped a clear (another process or this one changed monitors) answers,
// but is not remembered, so a replaced token stops working at the next push.
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../bus/bus.js';
import type { Store } from '../../store/index.js';
import { createPushTokenCache, PUSH_TOKEN_CACHE } from './token-cache.js';

type Found = { id: string; runOn: 'push'; enabled: boolean } | null;

/**
 * A store whose lookups the test answers one by one, each with what the database held when the lookup read it (the
 * same monitor for every hash asked, as the query filters: enabled push monitors only).
 */
function pendingStore() {
  const waiting: ((found: Found | Error) => void)[] = [];
  const asked: string[][] = [];
  const store = {
    monitors: {
      pushTargets: (hashes: readonly string[]) => {
        asked.push([...hashes]);
        return new Promise<Map<string, string>>((resolve, reject) =>
          waiting.push((found) =>
            found instanceof Error
              ? reject(found)
              : resolve(
                  new Map(found?.enabled && found.runOn === 'push' ? hashes.map((hash) => [hash, found.id]) : []),
                ),
          ),
        );
      },
    },
  } as unknown as Store;
  /** Answers the oldest lookup, once it has been sent (at the end of the turn its tokens were missed in). */
  const answer = async (found: Found | Error) => {
    await new Promise((resolve) => setImmediate(resolve));
    waiting.shift()?.(found);
  };
  return { store, answer, lookups: () => asked.length, asked };
}

let now = 1_000;
const clock = { now: () => now } as never;
const before: Found = { id: 'mon_backup', runOn: 'push', enabled: true };

describe('the push token cache', () => {
  it('remembers a token it looked up, until a clear', async () => {
    const { store, answer, lookups } = pendingStore();
    const cache = createPushTokenCache({ store, bus: createInProcessBus(), clock });
    const first = cache.monitorFor('hash');
    await answer(before);
    expect(await first).toBe('mon_backup');
    expect(await cache.monitorFor('hash')).toBe('mon_backup');
    expect(lookups()).toBe(1);
    cache.clear();
    const again = cache.monitorFor('hash');
    await answer(null);
    expect(await again).toBeNull();
    expect(lookups()).toBe(2);
  });

  for (const [how, clear] of [
    ['clear() (the change counter moved)', (cache: ReturnType<typeof createPushTokenCache>) => cache.clear()],
    [
      'monitors.changed on the bus',
      (_cache: ReturnType<typeof createPushTokenCache>, bus: ReturnType<typeof createInProcessBus>) =>
        bus.publish({ type: 'monitors.changed', at: 1_000, organizationId: 'org_a' }),
    ],
  ] as const)
    it(`does not remember what a lookup read before ${how} came in`, async () => {
      const { store, answer, lookups } = pendingStore();
      const bus = createInProcessBus();
      const cache = createPushTokenCache({ store, bus, clock });
      // The lookup read the old token; the token is replaced and the cache cleared before its answer arrives.
      const inFlight = cache.monitorFor('hash');
      await clear(cache, bus);
      await answer(before);
      expect(await inFlight).toBe('mon_backup');
      // The next push looks the token up again, and finds it gone.
      const next = cache.monitorFor('hash');
      await answer(null);
      expect(await next).toBeNull();
      expect(lookups()).toBe(2);
    });
  it('looks the tokens missed in one turn up in one query, and shares a lookup under way', async () => {
    const { store, answer, asked } = pendingStore();
    const cache = createPushTokenCache({ store, bus: createInProcessBus(), clock });
    const pings = [cache.monitorFor('a'), cache.monitorFor('b'), cache.monitorFor('a')];
    await new Promise((resolve) => setImmediate(resolve));
    // Sent: a ping that misses now waits for the same answer rather than asking again.
    pings.push(cache.monitorFor('b'));
    await answer(before);
    expect(await Promise.all(pings)).toEqual(['mon_backup', 'mon_backup', 'mon_backup', 'mon_backup']);
    expect(asked).toEqual([['a', 'b']]);
    expect(await cache.monitorFor('b')).toBe('mon_backup');
    expect(asked).toHaveLength(1);
  });

  it('trusts a remembered token for its TTL, then asks again; a failed lookup is asked again at the next ping', async () => {
    now = 1_000;
    const { store, answer, lookups } = pendingStore();
    const cache = createPushTokenCache({ store, bus: createInProcessBus(), clock });
    const first = cache.monitorFor('hash');
    await answer(before);
    expect(await first).toBe('mon_backup');
    now += PUSH_TOKEN_CACHE.ttlMs - 1;
    expect(await cache.monitorFor('hash')).toBe('mon_backup');
    expect(lookups()).toBe(1);
    now += 1;
    const failing = cache.monitorFor('hash');
    await answer(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const retried = cache.monitorFor('hash');
    await answer(before);
    expect(await retried).toBe('mon_backup');
    expect(lookups()).toBe(3);
    now = 1_000;
  });
});
