// The push token cache: a lookup that overlapped a clear (another process or this one changed monitors) answers,
// but is not remembered, so a replaced token stops working at the next push.
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../bus/bus.js';
import type { Store } from '../../store/index.js';
import { createPushTokenCache } from './token-cache.js';

type Found = { id: string; runOn: 'push'; enabled: boolean } | null;

/** A store whose lookups the test answers one by one, each with what the database held when the lookup read it. */
function pendingStore() {
  const waiting: ((found: Found) => void)[] = [];
  let lookups = 0;
  const store = {
    monitors: {
      findByPushTokenHash: () => {
        lookups++;
        return new Promise<Found>((resolve) => waiting.push(resolve));
      },
    },
  } as unknown as Store;
  return { store, answer: (found: Found) => waiting.shift()?.(found), lookups: () => lookups };
}

const clock = { now: () => 1_000 } as never;
const before: Found = { id: 'mon_backup', runOn: 'push', enabled: true };

describe('the push token cache', () => {
  it('remembers a token it looked up, until a clear', async () => {
    const { store, answer, lookups } = pendingStore();
    const cache = createPushTokenCache({ store, bus: createInProcessBus(), clock });
    const first = cache.monitorFor('hash');
    answer(before);
    expect(await first).toBe('mon_backup');
    expect(await cache.monitorFor('hash')).toBe('mon_backup');
    expect(lookups()).toBe(1);
    cache.clear();
    const again = cache.monitorFor('hash');
    answer(null);
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
      answer(before);
      expect(await inFlight).toBe('mon_backup');
      // The next push looks the token up again, and finds it gone.
      const next = cache.monitorFor('hash');
      answer(null);
      expect(await next).toBeNull();
      expect(lookups()).toBe(2);
    });
});
