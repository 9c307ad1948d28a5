// Adds, changes and deletes a page's boards, and puts warden.yaml's: one path for the API and the file. The keeper
// (runner/board-keeper.ts) notices a new or changed board at its next pass and posts or edits its message.
import { BOARD_LIMITS, type Board, type BoardSpec } from '../../domain/board.js';
import { newId } from '../../domain/ids.js';
import type { Page } from '../../domain/page.js';
import { requireOnPage, resolveComponentRefs } from '../components/refs.js';
import { parseInput, type ServiceContext, writerFor, writerOf, writeVerb } from '../context.js';
import { addToPage, deleteFromPage, putOnPage } from '../pages/children.js';
import { requirePage } from '../pages/read.js';
import type { PutOutcome } from '../put.js';
import { viewOf } from './read.js';
import { boardCreateInput, boardEntryInput, boardPatchInput, boardRefInput } from './schema.js';
import type { BoardView } from './view.js';

type BoardEntry = Omit<BoardSpec, 'componentIds'> & { components?: string[] | undefined };

export const createBoard = writeVerb(boardCreateInput, async (tx, { slug, ...entry }): Promise<BoardView> => {
  const page = await requirePage(tx, slug);
  return viewOf(tx, page.id, await insertBoard(tx, page, await specOf(tx, page, entry)));
});

/** warden.yaml's board, by key: created, or made to match the file. */
export const putBoard = writeVerb(
  boardEntryInput,
  async (tx, { slug, ...entry }): Promise<{ board: Board; outcome: PutOutcome }> => {
    const page = await requirePage(tx, slug);
    const spec = await specOf(tx, page, entry);
    const { value: board, outcome } = await putOnPage(tx, page, tx.store.boards, {
      label: `board "${entry.key}" of page "${slug}"`,
      current: await tx.store.boards.findByKey(page.id, entry.key),
      create: () => insertBoard(tx, page, spec),
      spec: () => spec,
      changed: (current, next) => JSON.stringify(specOfBoard(current)) !== JSON.stringify(next),
    });
    return { board, outcome };
  },
);

export const updateBoard = writeVerb(boardPatchInput, async (tx, { slug, id, ...patch }): Promise<BoardView> => {
  const { page, item: current } = await requireOnPage(tx, slug, id, 'board', tx.store.boards.findById);
  const writer = writerFor(tx, current, `board "${current.key}" of page "${slug}"`);
  const spec: BoardSpec = {
    ...specOfBoard(current),
    ...(patch.webhookUrl === undefined ? {} : { webhookUrl: patch.webhookUrl }),
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    ...(patch.components === undefined
      ? {}
      : { componentIds: patch.components === null ? null : await resolveComponentRefs(tx, page.id, patch.components) }),
  };
  await tx.store.boards.update(current.id, spec, writer, tx.clock.now());
  return viewOf(tx, page.id, (await tx.store.boards.findById(current.id)) ?? current);
});

export async function deleteBoard(ctx: ServiceContext, input: { slug: string; id: string }): Promise<void> {
  await deleteFromPage(ctx, parseInput(boardRefInput, input), 'board', (store) => store.boards);
}

const specOfBoard = (b: Board): BoardSpec => ({
  key: b.key,
  kind: b.kind,
  webhookUrl: b.webhookUrl,
  componentIds: b.componentIds,
  enabled: b.enabled,
});

async function specOf(ctx: ServiceContext, page: Page, entry: BoardEntry): Promise<BoardSpec> {
  return {
    key: entry.key,
    kind: entry.kind,
    webhookUrl: entry.webhookUrl,
    componentIds: entry.components === undefined ? null : await resolveComponentRefs(ctx, page.id, entry.components),
    enabled: entry.enabled,
  };
}

function insertBoard(ctx: ServiceContext, page: Page, spec: BoardSpec): Promise<Board> {
  return addToPage(ctx, page, {
    key: spec.key,
    taken: `a board with key "${spec.key}" already exists on page "${page.slug}"`,
    count: () => ctx.store.boards.count(page.id),
    max: BOARD_LIMITS.perPage,
    full: `a page has at most ${BOARD_LIMITS.perPage} boards`,
    exists: (key) => ctx.store.boards.findByKey(page.id, key),
    async insert() {
      const id = newId('brd');
      await ctx.store.boards.insert(
        { ...spec, id, organizationId: page.organizationId, pageId: page.id, managedBy: writerOf(ctx) },
        ctx.clock.now(),
      );
      return (await ctx.store.boards.findById(id)) as Board;
    },
  });
}
