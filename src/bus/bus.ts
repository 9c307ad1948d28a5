// The event bus: typed publish/subscribe, in process; a Redis implementation can take its place to scale out.
import type { WardenEvent, WardenEventType } from './events.js';

export type EventHandler<T extends WardenEventType> = (event: Extract<WardenEvent, { type: T }>) => void;

export interface Bus {
  publish(event: WardenEvent): void;
  subscribe<T extends WardenEventType>(type: T, handler: EventHandler<T>): () => void;
  close(): Promise<void>;
}

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
    async close() {
      handlers.clear();
    },
  };
}
