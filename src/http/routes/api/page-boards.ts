// A page's boards: /api/v1/pages/{slug}/boards — Discord messages Warden keeps up to date with the page (docs/boards.md).
import { getBoard, listBoards } from '../../../services/boards/read.js';
import { boardCreateSchema, boardPatchSchema } from '../../../services/boards/schema.js';
import { boardViewSchema } from '../../../services/boards/view.js';
import { createBoard, deleteBoard, updateBoard } from '../../../services/boards/write.js';
import type { App } from '../../env.js';
import type { ApiGuards } from './operation.js';
import { pageChildRoutes } from './page-children.js';

const managed = 'Boards managed by warden.yaml answer 409.';

export function pageBoardRoutes(app: App, guards: ApiGuards): void {
  pageChildRoutes(app, guards, {
    tag: 'boards',
    collection: 'boards',
    id: { what: 'board', example: 'brd_2b4d6f8h1j3k5m7n' },
    view: boardViewSchema.openapi('Board'),
    create: boardCreateSchema.openapi('BoardCreate'),
    patch: boardPatchSchema.openapi('BoardPatch'),
    notFound: 'No such page in your organization, or no such board on it.',
    audit: { type: 'board', label: (board) => board.key },
    words: {
      list: { summary: "List a page's boards", ok: 'The boards, by key.' },
      create: {
        summary: 'Add a board',
        description:
          'A Discord message that shows the page (or some of its components) and is edited in place whenever what it shows changes. It is posted within seconds; its state is under `message`.',
        ok: 'Created.',
      },
      get: { summary: 'Read a board', ok: 'The board.' },
      update: {
        summary: 'Change a board',
        description: `Changes the fields given; the key stays. A stopped board is tried again. ${managed}`,
        ok: 'The changed board.',
      },
      delete: {
        summary: 'Delete a board',
        description: `Warden stops editing its message (the message stays in Discord). ${managed}`,
        ok: 'Deleted.',
      },
    },
    verbs: { list: listBoards, create: createBoard, get: getBoard, update: updateBoard, delete: deleteBoard },
  });
}
