// The live hub with a page cache of plain values: snapshot first, diffs after, one Buffer for all, isolation, access changes.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { operationalSnapshot, partialOutageSnapshot } from '../../../test/fakes/snapshots.js';
import { EMPTY_BRANDING } from '../../domain/branding.js';
import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { createLogger } from '../../logger.js';
import type { CachedPage, PageCache, SnapshotRebuilt } from '../pages/page-cache.js';
import { createLiveHub, type LiveHub, type LiveSubscriber } from './hub.js';
import { LIVE_CLOSE } from './limits.js';

const PAGE: Page = {
  id: 'page_blockhaven',
  organizationId: 'org',
  slug: 'blockhaven',
  title: 'Blockhaven Network',
  description: null,
  customDomain: null,
  customDomainToken: null,
  customDomainVerifiedAt: null,
  customDomainCheckedAt: null,
  passwordHash: null,
  aiPolicy: 'allow',
  notify: null,
  subscriptions: false,
  showPlayerNames: false,
  announceGameChanges: false,
  publishUptimeHistory: false,
  showUnreachable: false,
  draftIncidents: null,
  language: null,
  timeZone: 'UTC',
  branding: EMPTY_BRANDING,
  customCss: null,
  managedBy: 'config',
  createdAt: 0,
  updatedAt: 0,
};

/** A page cache holding one snapshot per page, whose rebuilds the test triggers by hand. */
function fakeCache(initial: Snapshot) {
  let current = initial;
  let pages = [PAGE];
  const listeners = new Set<(event: SnapshotRebuilt) => void>();
  const watched = new Map<string, number>();
  const cached = () => ({ page: PAGE, snapshot: current, builtAt: 0 }) as unknown as CachedPage;
  const cache = {
    onSnapshot(listener: (event: SnapshotRebuilt) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    peek: () => cached(),
    get: async () => cached(),
    pages: () => pages,
    watch(pageId: string) {
      watched.set(pageId, (watched.get(pageId) ?? 0) + 1);
      return () => watched.set(pageId, (watched.get(pageId) ?? 0) - 1);
    },
  } as unknown as PageCache;
  return {
    cache,
    rebuild(next: Snapshot, page: Page = PAGE) {
      const previous = current;
      current = next;
      for (const listener of listeners) listener({ page, snapshot: next, previous });
    },
    setPages(list: Page[]) {
      pages = list;
    },
    listeners: () => listeners.size,
    /** Watches held on the page: the cache rebuilds a watched page on every change, whether or not it is read. */
    watches: (pageId = PAGE.id) => watched.get(pageId) ?? 0,
  };
}

function recorder(): LiveSubscriber & { frames: Buffer[]; closed: [number, string][]; messages(): { type: string }[] } {
  const frames: Buffer[] = [];
  const closed: [number, string][] = [];
  return {
    frames,
    closed,
    send: (bytes) => frames.push(bytes),
    close: (code, reason) => closed.push([code, reason]),
    messages: () => frames.map((frame) => JSON.parse(frame.toString())),
  };
}

const logger = createLogger('silent');
let hub: LiveHub | undefined;
afterEach(() => {
  hub?.close();
  vi.useRealTimers();
});

describe('the live hub', () => {
  it('sends the current snapshot on join, then the changes of each rebuild', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    const client = recorder();
    hub.join(PAGE, operationalSnapshot(), client);
    expect(client.messages()).toEqual([
      { type: 'snapshot', at: operationalSnapshot().generatedAt, snapshot: operationalSnapshot() },
    ]);
    fake.rebuild({ ...partialOutageSnapshot(), generatedAt: operationalSnapshot().generatedAt + 500 });
    expect(client.messages().map((m) => m.type)).toEqual(['snapshot', 'monitor.update', 'totals', 'overall']);
    fake.rebuild({ ...partialOutageSnapshot(), generatedAt: operationalSnapshot().generatedAt + 30_500 });
    expect(client.frames).toHaveLength(4);
  });

  it('hands every subscriber the very same bytes, serialized once', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    const clients = [recorder(), recorder(), recorder()];
    for (const client of clients) hub.join(PAGE, operationalSnapshot(), client);
    expect(clients[1]!.frames[0]).toBe(clients[0]!.frames[0]);
    fake.rebuild(partialOutageSnapshot());
    for (let i = 0; i < 4; i++) expect(clients[2]!.frames[i]).toBe(clients[0]!.frames[i]);
  });

  it('keeps delivering to others when one subscriber throws', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    const broken: LiveSubscriber = {
      send: () => {
        throw new Error('socket exploded');
      },
      close: () => {},
    };
    const fine = recorder();
    hub.join(PAGE, operationalSnapshot(), broken);
    hub.join(PAGE, operationalSnapshot(), fine);
    fake.rebuild(partialOutageSnapshot());
    expect(fine.frames).toHaveLength(4);
  });

  it('stops sending after leave, and counts subscribers', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    const client = recorder();
    const leave = hub.join(PAGE, operationalSnapshot(), client);
    expect(hub.size()).toBe(1);
    leave();
    leave();
    expect(hub.size()).toBe(0);
    fake.rebuild(partialOutageSnapshot());
    expect(client.frames).toHaveLength(1);
  });

  it('watches a page once while anyone listens, so the cache rebuilds it unread', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    expect(fake.watches()).toBe(0);
    const leaveFirst = hub.join(PAGE, operationalSnapshot(), recorder());
    const leaveSecond = hub.join(PAGE, operationalSnapshot(), recorder());
    expect(fake.watches()).toBe(1);
    leaveFirst();
    expect(fake.watches()).toBe(1);
    leaveSecond();
    leaveSecond();
    expect(fake.watches()).toBe(0);
    hub.join(PAGE, operationalSnapshot(), recorder());
    hub.close();
    expect(fake.watches()).toBe(0);
  });

  it('closes subscribers when the page gets a password, and when it is deleted', () => {
    vi.useFakeTimers();
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger, keepWarmMs: 20 });
    const first = recorder();
    hub.join(PAGE, operationalSnapshot(), first);
    fake.rebuild(later(operationalSnapshot()), { ...PAGE, passwordHash: 'scrypt$…', updatedAt: 1 });
    expect(first.closed).toEqual([[LIVE_CLOSE.accessChanged, 'page access changed']]);

    const second = recorder();
    hub.join(PAGE, operationalSnapshot(), second);
    fake.setPages([]);
    expect(second.closed).toEqual([]);
    // The hub notices a deleted page when it next keeps the pages it streams warm.
    vi.advanceTimersByTime(20);
    expect(second.closed[0]).toEqual([LIVE_CLOSE.pageGone, 'page removed']);
  });

  it('closes everyone with 1001 and stops listening to the cache on close', () => {
    const fake = fakeCache(operationalSnapshot());
    hub = createLiveHub({ pages: fake.cache, logger });
    const client = recorder();
    hub.join(PAGE, operationalSnapshot(), client);
    hub.close();
    expect(client.closed).toEqual([[1001, 'server shutting down']]);
    expect(fake.listeners()).toBe(0);
  });
});

function later(snapshot: Snapshot): Snapshot {
  return { ...snapshot, generatedAt: snapshot.generatedAt + 1000 };
}
