// The "Discord boards" section of the page editor: each board with where its message stands (posted, pending, failing,
// stopped), and the forms to add, change or delete one. Boards warden.yaml declares are read-only here.
import { Button, Code, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type BoardView, boardsChanged, boardsQuery, deleteBoard } from '../../api/boards';
import { useOrganizationKey } from '../../api/organization';
import { ConfirmButton } from '../../ui/confirm-button';
import { ManagedBadge } from '../../ui/managed-badge';
import { QueryState } from '../../ui/query-state';
import { Timestamp } from '../../ui/timestamp';
import { BoardForm } from './board-form';
import { TintedBadge } from './tinted-badge';

/** At most this many boards per page (BOARD_LIMITS.perPage on the server). */
const BOARDS_PER_PAGE = 10;

export function BoardSection({ slug, mayEdit }: { slug: string; mayEdit: boolean }) {
  const org = useOrganizationKey();
  const boards = useQuery(boardsQuery(org, slug));
  const [editing, setEditing] = useState<BoardView | null>(null);
  const [adding, setAdding] = useState(false);
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        A board is one message in a Discord channel that Warden posts through the channel's webhook and edits whenever
        the page (or the components it shows) changes.
      </Text>
      <QueryState query={boards} loading="Loading boards" failed="Could not load the boards">
        {(list) => (
          <Stack gap="sm">
            {list.length === 0 ? (
              <Text size="sm">No boards yet.</Text>
            ) : (
              <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Boards">
                {list.map((board) => (
                  <BoardRow key={board.id} slug={slug} board={board} mayEdit={mayEdit} onEdit={setEditing} />
                ))}
              </Stack>
            )}
            {mayEdit &&
              (adding ? (
                <Stack gap="xs">
                  <Title order={3} size="h5">
                    Add a Discord board
                  </Title>
                  <BoardForm slug={slug} onDone={() => setAdding(false)} />
                </Stack>
              ) : (
                <Group>
                  <Button variant="light" onClick={() => setAdding(true)} disabled={list.length >= BOARDS_PER_PAGE}>
                    Add a Discord board
                  </Button>
                  {list.length >= BOARDS_PER_PAGE && (
                    <Text size="sm">A page has at most {BOARDS_PER_PAGE} boards.</Text>
                  )}
                </Group>
              ))}
          </Stack>
        )}
      </QueryState>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Edit board ${editing.key}` : ''}
        centered
        size="lg"
      >
        {editing && <BoardForm slug={slug} board={editing} onDone={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function BoardRow({
  slug,
  board,
  mayEdit,
  onEdit,
}: {
  slug: string;
  board: BoardView;
  mayEdit: boolean;
  onEdit: (board: BoardView) => void;
}) {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const editable = mayEdit && board.managedBy !== 'config';
  const { message } = board;
  return (
    <Paper component="li" withBorder p="xs" radius="md" aria-label={`Board ${board.key}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {board.key}
            </Text>
            <ManagedBadge managedBy={board.managedBy} />
            <MessageState board={board} />
          </Group>
          <Text size="xs" c="dimmed">
            <Code>{board.webhookUrl}</Code> · shows{' '}
            {board.components === null ? 'every component' : board.components.join(', ') || 'no component'}
          </Text>
          <Text size="xs">
            {message.id ? 'Message last changed ' : 'Not posted yet'}
            {message.id && <Timestamp ms={message.shownAt} empty="not yet" />}
          </Text>
          {message.lastError && (
            <Text size="xs" c="red.8">
              Last error{message.attempts > 0 ? ` (${attempts(message.attempts)})` : ''}: {message.lastError}
            </Text>
          )}
        </Stack>
        {editable && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => onEdit(board)} aria-label={`Edit board ${board.key}`}>
              Edit
            </Button>
            <ConfirmButton
              size="xs"
              variant="default"
              color="red"
              aria-label={`Delete board ${board.key}`}
              title={`Delete board ${board.key}?`}
              message="Warden stops editing its message; the message itself stays in the Discord channel."
              confirmLabel="Delete board"
              onConfirm={async () => {
                await deleteBoard(org, slug, board.id);
                await boardsChanged(queryClient, org, slug);
              }}
            >
              Delete
            </ConfirmButton>
          </Group>
        )}
      </Group>
    </Paper>
  );
}

/** Where the board's message stands, in words (the colour only repeats them). */
function MessageState({ board }: { board: BoardView }) {
  const { message } = board;
  if (!board.enabled) return <TintedBadge color="gray">Disabled</TintedBadge>;
  if (message.stopped) return <TintedBadge color="red">Stopped: change the board to try again</TintedBadge>;
  if (message.pending && message.attempts > 0) return <TintedBadge color="orange">Retrying</TintedBadge>;
  if (message.pending) return <TintedBadge color="yellow">{message.id ? 'Update pending' : 'Posting'}</TintedBadge>;
  if (message.id) return <TintedBadge color="green">Posted</TintedBadge>;
  return <TintedBadge color="gray">Not posted</TintedBadge>;
}

const attempts = (n: number) => (n === 1 ? '1 attempt' : `${n} attempts`);
