// A status as a coloured dot and its word (a relay online, a channel enabled, a delivery sent): never colour alone.
import { Group, Text } from '@mantine/core';

/** `color`: a Mantine colour name (green, red, gray, …). */
export function StatusDot({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
        <circle
          cx="5"
          cy="5"
          r="5"
          fill={color === 'gray' ? 'var(--warden-neutral-dot)' : `var(--mantine-color-${color}-filled)`}
        />
      </svg>
      <Text size="sm" span style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
    </Group>
  );
}
