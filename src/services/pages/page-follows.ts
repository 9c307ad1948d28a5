// The organizations whose monitor events the page cache follows: those of the pages it holds in memory, and no other
// (in cluster mode another process's results reach this one only for them; see Bus.follow).
import type { Bus, Following } from '../../bus/bus.js';

/** How long a cold page's first build waits for the subscription to its organization's events (Redis answers in ~1 ms). */
export const FOLLOW_READY_MS = 1_000;

export interface PageFollows {
  /** Follows the organization, and resolves once its events arrive (or they cannot now, or after FOLLOW_READY_MS). */
  follow(organizationId: string): Promise<void>;
  /** Stops following the organizations not in this set (their pages left memory). */
  keepOnly(organizationIds: ReadonlySet<string>): void;
  releaseAll(): void;
}

export function createPageFollows(bus: Bus): PageFollows {
  const held = new Map<string, Following>();
  return {
    async follow(organizationId) {
      let following = held.get(organizationId);
      if (!following) {
        following = bus.follow(organizationId);
        held.set(organizationId, following);
      }
      await following.ready(FOLLOW_READY_MS);
    },
    keepOnly(organizationIds) {
      for (const [organizationId, following] of held)
        if (!organizationIds.has(organizationId)) {
          following.release();
          held.delete(organizationId);
        }
    },
    releaseAll() {
      for (const following of held.values()) following.release();
      held.clear();
    },
  };
}
