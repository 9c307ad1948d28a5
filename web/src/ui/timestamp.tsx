// A moment as people read it (in their locale and zone), in a <time> element carrying the exact instant.
import { Text } from '@mantine/core';

const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatTimestamp(ms: number): string {
  return FORMAT.format(ms);
}

/** `ms` since the epoch; `empty` when there is none (never used, not yet). */
export function Timestamp({ ms, empty = '–' }: { ms: number | null | undefined; empty?: string }) {
  if (ms === null || ms === undefined)
    return (
      <Text component="span" size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Text component="time" size="sm" dateTime={new Date(ms).toISOString()} title={new Date(ms).toISOString()}>
      {formatTimestamp(ms)}
    </Text>
  );
}
