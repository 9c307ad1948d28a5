// The event bus: typed publish/subscribe, in process; a Redis implementation can take its place to scale out.
import type { WardenEvent, WardenEventType } from './events.js';

export type EventHandler<T extends WardenEventType> = (event: Extract<WardenEvent, { type: T }>) => void;

/** This process's interest in one organization's monitor events (see Bus.follow). */
export interface Following {
  /**
   * Resolves true once the organization's monitor events of every process reach this one (at once on one process),
   * false when they cannot now (Redis away: they are polled) or after `timeoutMs`.
   */
  ready(timeoutMs: number): Promise<boolean>;
  /** Ends this interest; the process stops receiving the events when no other interest in the organization remains. */
  release(): void;
}

export interface Bus {
  publish(event: WardenEvent): void;
  subscribe<T extends WardenEventType>(type: T, handler: EventHandler<T>): () => void;
  /**
   * Monitor events (`monitor.checked`, `monitor.state`) published by other processes reach this one only for the
   * organizations it follows: a subscriber that keeps something per organization follows it while it does. Other
   * events, and every event published by this process, always arrive.
   */
  follow(organizationId: string): Following;
  close(): Promise<void>;
}

/** One process hears everything it publishes: following is always ready. */
export const FOLLOWING_EVERYTHING: Following = { ready: async () => true, release: () => {} };

/** Delivers synchronously to subscribers in this process; a throwing subscriber never stops the others or the publisher. */
export function createInProcessBus(onHandlerError: (error: unknown, event: WardenEvent) => void = () => {}): Bus {
  const handlers = new Map<WardenEventType, Set<(event: WardenEvent) => void>>();
  return {
    publish(event) {
      const set = handlers.get(event.type);
      if (!set) return;
      for (const handler of set) {
        try {
          handler(event);
        } catch (error) {
          onHandlerError(error, event);
        }
      }
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
      }
      const wrapped = handler as (event: WardenEvent) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
    follow: () => FOLLOWING_EVERYTHING,
    async close() {
      handlers.clear();
    },
  };
}
