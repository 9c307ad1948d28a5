// Reads a page's boards, or one of them.

import type { Board } from '../../domain/board.js';
import { componentKeysById, requireOnPage } from '../components/refs.js';
import { readVerb, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';
import { boardListInput, boardRefInput } from './schema.js';
import { type BoardView, boardView } from './view.js';

export const listBoards = readVerb(boardListInput, async (ctx, { slug }): Promise<BoardView[]> => {
  const page = await requirePage(ctx, slug);
  const keys = await componentKeysById(ctx, page.id);
  const boards = await ctx.store.boards.list(page.id);
  return Promise.all(boards.map(async (b) => boardView(b, await ctx.store.boards.delivery(b.id), keys)));
});

export const getBoard = readVerb(boardRefInput, async (ctx, { slug, id }): Promise<BoardView> => {
  const { page, item } = await requireOnPage(ctx, slug, id, 'board', ctx.store.boards.findById);
  return viewOf(ctx, page.id, item);
});

export async function viewOf(ctx: ServiceContext, pageId: string, board: Board): Promise<BoardView> {
  return boardView(board, await ctx.store.boards.delivery(board.id), await componentKeysById(ctx, pageId));
}
