// The live hub: who listens to which page, and fanning each snapshot change out to them as the same serialized bytes.

import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { type Logger, logFailure } from '../../logger.js';
import type { PageCache, SnapshotRebuilt } from '../pages/page-cache.js';
import { diffSnapshots, snapshotMessage } from './diff.js';
import { LIVE_CLOSE, LIVE_LIMITS } from './limits.js';
import type { LiveMessage } from './messages.js';

/** One listener, whatever carries it (a WebSocket in src/http/live.ts). */
export interface LiveSubscriber {
  /** One message, already serialized; the transport applies its own buffer cap (and may drop the subscriber). */
  send(bytes: Buffer): void;
  close(code: number, reason: string): void;
}

export interface LiveHub {
  /**
   * Adds a subscriber to a page: in the same tick it is sent the page's current snapshot (`fallback` when the cache
   * has none newer), then every change. Returns the function that removes it.
   */
  join(page: Page, fallback: Snapshot, subscriber: LiveSubscriber): () => void;
  /** Subscribers over all pages. */
  size(): number;
  /** Closes every subscriber with this code, and stops following the page cache. */
  close(code?: number, reason?: string): void;
}

interface Listening {
  /** Each subscriber with the page's password hash when it was let in: a change of password drops it. */
  subscribers: Map<LiveSubscriber, string | null>;
  /** Releases the page cache's watch: while someone listens, the page is rebuilt on every change, read or not. */
  unwatch: () => void;
}

/**
 * Subscribes to the page cache's rebuilt snapshots: each rebuild of a page someone listens to is diffed against the
 * version before, each message serialized once and the same Buffer handed to every subscriber. While a page has
 * listeners the hub reads it every `keepWarmMs`, so the cache keeps it in memory and rebuilds it when stale (as a
 * reader would), and notices a page deleted or newly protected.
 */
export function createLiveHub(deps: { pages: PageCache; logger: Logger; keepWarmMs?: number }): LiveHub {
  const listening = new Map<string, Listening>();
  /** The snapshot message of each version, serialized once however many clients connect during its life. */
  const snapshotBytes = new WeakMap<Snapshot, Buffer>();
  let timer: NodeJS.Timeout | null = null;
  let count = 0;

  const unsubscribe = deps.pages.onSnapshot(broadcast);

  function broadcast({ page, snapshot, previous }: SnapshotRebuilt): void {
    const entry = listening.get(page.id);
    if (!entry) return;
    for (const [subscriber, passwordHash] of entry.subscribers)
      if (passwordHash !== page.passwordHash) closeOne(subscriber, LIVE_CLOSE.accessChanged, 'page access changed');
    const messages: LiveMessage[] = previous ? diffSnapshots(previous, snapshot) : [snapshotMessage(snapshot)];
    for (const message of messages) {
      const bytes = message.type === 'snapshot' ? serializedSnapshot(snapshot) : Buffer.from(JSON.stringify(message));
      for (const subscriber of entry.subscribers.keys()) deliver(subscriber, bytes);
    }
  }

  function deliver(subscriber: LiveSubscriber, bytes: Buffer): void {
    try {
      subscriber.send(bytes);
    } catch (error) {
      deps.logger.debug({ err: error }, 'live subscriber failed');
    }
  }

  function serializedSnapshot(snapshot: Snapshot): Buffer {
    let bytes = snapshotBytes.get(snapshot);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(snapshotMessage(snapshot)));
      snapshotBytes.set(snapshot, bytes);
    }
    return bytes;
  }

  function keepWarm(): void {
    const current = new Map(deps.pages.pages().map((page) => [page.id, page]));
    for (const [id, entry] of listening) {
      const page = current.get(id);
      if (!page) closeAll(entry, LIVE_CLOSE.pageGone, 'page removed');
      else if (!deps.pages.peek(page))
        deps.pages
          .get(page)
          .catch((error) => logFailure(deps.logger, error, 'live: rebuilding page failed', { page: page.slug }));
    }
  }

  function closeAll(entry: Listening, code: number, reason: string): void {
    for (const subscriber of [...entry.subscribers.keys()]) closeOne(subscriber, code, reason);
  }

  /** Asks the transport to close; it calls the leave function, which removes the subscriber. */
  function closeOne(subscriber: LiveSubscriber, code: number, reason: string): void {
    try {
      subscriber.close(code, reason);
    } catch (error) {
      deps.logger.debug({ err: error }, 'closing live subscriber failed');
    }
  }

  return {
    join(page, fallback, subscriber) {
      let entry = listening.get(page.id);
      if (!entry) {
        entry = { subscribers: new Map(), unwatch: deps.pages.watch(page.id) };
        listening.set(page.id, entry);
      }
      const snapshot = deps.pages.peek(page)?.snapshot ?? fallback;
      deliver(subscriber, serializedSnapshot(snapshot));
      entry.subscribers.set(subscriber, page.passwordHash);
      count++;
      if (!timer) {
        timer = setInterval(keepWarm, deps.keepWarmMs ?? LIVE_LIMITS.keepWarmMs);
        timer.unref();
      }
      const joined = entry;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        joined.subscribers.delete(subscriber);
        count--;
        if (joined.subscribers.size === 0 && listening.get(page.id) === joined) {
          listening.delete(page.id);
          joined.unwatch();
        }
        if (listening.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    size: () => count,
    close(code: number = LIVE_CLOSE.goingAway, reason = 'server shutting down') {
      unsubscribe();
      if (timer) clearInterval(timer);
      timer = null;
      for (const entry of [...listening.values()]) {
        closeAll(entry, code, reason);
        entry.unwatch();
      }
    },
  };
}
