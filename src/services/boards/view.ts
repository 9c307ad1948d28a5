// The API's view of a board: its settings (the webhook redacted) and where its message stands.
import { z } from 'zod';
import { BOARD_KINDS, type Board, type BoardDelivery, redactedWebhook } from '../../domain/board.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';

export const boardViewSchema = z.object({
  id: z.string(),
  key: z.string(),
  kind: z.enum(BOARD_KINDS),
  webhookUrl: z.string().describe('Redacted: the token is never shown again.'),
  components: z.array(z.string()).nullable().describe('Keys of the components it shows; null: all of them.'),
  enabled: z.boolean(),
  message: z
    .object({
      id: z.string().nullable().describe('The Discord message it edits; null until it is first posted.'),
      shownAt: z.number().int().nullable().describe('When the message last changed.'),
      pending: z.boolean().describe('An edit waits to go (it goes at dueAt).'),
      dueAt: z.number().int().nullable(),
      attempts: z.number().int().describe('Failed attempts of the pending edit.'),
      lastError: z.string().nullable().describe("The last failure, in Discord's words."),
      stopped: z
        .boolean()
        .describe('Discord refused for good (the webhook was deleted, a wrong token): change the board to try again.'),
    })
    .describe('Where its message stands.'),
  ...ownershipFields(),
});

export type BoardView = z.infer<typeof boardViewSchema>;

export function boardView(
  board: Board,
  delivery: BoardDelivery | undefined,
  componentKeys: ReadonlyMap<string, string>,
): BoardView {
  return {
    id: board.id,
    key: board.key,
    kind: board.kind,
    webhookUrl: redactedWebhook(board.webhookUrl),
    components: board.componentIds === null ? null : board.componentIds.flatMap((id) => componentKeys.get(id) ?? []),
    enabled: board.enabled,
    message: {
      id: delivery?.messageId ?? null,
      shownAt: delivery?.shownAt ?? null,
      pending: delivery?.pendingHash != null,
      dueAt: delivery?.dueAt ?? null,
      attempts: delivery?.attempts ?? 0,
      lastError: delivery?.lastError ?? null,
      stopped: delivery?.stopped ?? false,
    },
    ...ownershipOf(board),
  };
}
