// Keeps the organization's live stream open while signed in and says whether it is: a dot and a word in the header,
// with a sentence for screen readers, announced politely when it changes (never colour alone).
import { Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { type LiveStatus, useLiveUpdates } from '../api/live';

const LOOK: Record<LiveStatus, { color: string; word: string; sentence: string }> = {
  live: {
    color: 'var(--mantine-color-green-filled)',
    word: 'Live',
    sentence: 'Live updates on: monitor states change here as they happen.',
  },
  connecting: {
    color: 'var(--warden-neutral-dot)',
    word: 'Connecting',
    sentence: 'Connecting to live updates.',
  },
  offline: {
    color: 'var(--mantine-color-orange-filled)',
    word: 'Offline',
    sentence: 'Live updates interrupted; reconnecting.',
  },
};

export function LiveIndicator({ organization }: { organization: string | undefined }) {
  const status = useLiveUpdates(organization);
  const look = LOOK[status];
  return (
    <Tooltip label={look.sentence} withArrow>
      <Group gap={6} wrap="nowrap" role="status" aria-live="polite" data-live-status={status}>
        <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
          <circle cx="5" cy="5" r="5" fill={look.color} />
        </svg>
        <Text size="sm" span visibleFrom="xs" aria-hidden="true">
          {look.word}
        </Text>
        <VisuallyHidden>{look.sentence}</VisuallyHidden>
      </Group>
    </Tooltip>
  );
}
