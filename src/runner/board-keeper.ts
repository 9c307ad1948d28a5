// Keeps boards' messages following their pages: each time a page's snapshot is rebuilt, and on a slower pass over
// every board (a new or changed board, a change made while no process ran, a page gone cold), each board of the page
// is rendered and, when what it shows differs from what is shown or pending, its edit is stored as pending — after a
// short settle, and at most once per minimum interval — for the sender (notify/boards/sender.ts). Every process may run it: the store
// records an edit only once, and the sender's claims let one process send it.
import { BOARD_LIMITS, type Board } from '../domain/board.js';
import type { Clock } from '../domain/clock.js';
import type { Page } from '../domain/page.js';
import type { Snapshot } from '../domain/snapshot.js';
import { type Logger, logFailure } from '../logger.js';
import { discordBoardMessage } from '../notify/boards/discord-board.js';
import type { Store } from '../store/index.js';

/** What the keeper reads of the page cache (services/pages/page-cache.ts), which it is handed. */
export interface BoardPages {
  pages(): Page[];
  get(page: Page): Promise<{ snapshot: Snapshot }>;
  onSnapshot(listener: (event: { page: Page; snapshot: Snapshot }) => void): () => void;
  /** Keeps a page rebuilt on every change though nobody reads it; returns the release. */
  watch(pageId: string): () => void;
}

export interface BoardKeeper {
  /** Renders every active board and records the edits due; resolves to how many it recorded. */
  pass(): Promise<number>;
  /** Follows the page cache's rebuilds (watching each page with a board). Returns the unsubscribe. */
  follow(): () => void;
}

export function createBoardKeeper(deps: {
  store: Store;
  clock: Clock;
  pages: BoardPages;
  logger: Logger;
}): BoardKeeper {
  /** Boards by page id, as the last pass read them. */
  let byPage = new Map<string, Board[]>();
  /** The hash last recorded per board version: no write while nothing changed. */
  const recorded = new Map<string, string>();
  const version = (board: Board) => `${board.id}@${board.updatedAt}`;
  /** The page cache's watch on each page with an active board, while following: its edits follow each change. */
  const watches = new Map<string, () => void>();
  let following = false;

  function watchBoardPages(): void {
    for (const [pageId, release] of watches)
      if (!following || !byPage.has(pageId)) {
        release();
        watches.delete(pageId);
      }
    if (following)
      for (const pageId of byPage.keys()) if (!watches.has(pageId)) watches.set(pageId, deps.pages.watch(pageId));
  }

  async function render(board: Board, snapshot: Snapshot): Promise<boolean> {
    const now = deps.clock.now();
    const message = discordBoardMessage(snapshot, board, now);
    if (recorded.get(version(board)) === message.hash) return false;
    const stored = await deps.store.boards.setPending(
      board.id,
      message.payload,
      message.hash,
      now + BOARD_LIMITS.settleMs,
    );
    recorded.set(version(board), message.hash);
    return stored;
  }

  function pageOf(board: Board): Page | undefined {
    return deps.pages.pages().find((p) => p.id === board.pageId);
  }

  return {
    async pass() {
      const boards = await deps.store.boards.listActive();
      const next = new Map<string, Board[]>();
      for (const board of boards) next.set(board.pageId, [...(next.get(board.pageId) ?? []), board]);
      byPage = next;
      watchBoardPages();
      const live = new Set(boards.map(version));
      for (const key of recorded.keys()) if (!live.has(key)) recorded.delete(key);
      let stored = 0;
      for (const board of boards) {
        const page = pageOf(board);
        if (!page) continue;
        // Reading the page keeps it warm: the cache rebuilds a stale snapshot as it would for a reader.
        if (await render(board, (await deps.pages.get(page)).snapshot)) stored++;
      }
      return stored;
    },
    follow() {
      following = true;
      watchBoardPages();
      const unsubscribe = deps.pages.onSnapshot(({ page, snapshot }) => {
        for (const board of byPage.get(page.id) ?? [])
          render(board, snapshot).catch((error) => logFailure(deps.logger, error, 'board render failed'));
      });
      return () => {
        following = false;
        watchBoardPages();
        unsubscribe();
      };
    },
  };
}
