// A monitor's state as a coloured dot and its word: never colour alone.
import { Group, Text } from '@mantine/core';

const STATES: Record<string, { color: string; label: string }> = {
  up: { color: 'var(--mantine-color-green-filled)', label: 'Up' },
  degraded: { color: 'var(--mantine-color-yellow-filled)', label: 'Degraded' },
  down: { color: 'var(--mantine-color-red-filled)', label: 'Down' },
  unknown: { color: 'var(--warden-neutral-dot)', label: 'Unknown' },
  paused: { color: 'var(--warden-neutral-dot)', label: 'Paused' },
};

export function MonitorStateLabel({ state, paused = false }: { state: string; paused?: boolean }) {
  const shown = STATES[paused ? 'paused' : state] ?? { color: 'var(--warden-neutral-dot)', label: state };
  return (
    <Group gap={6} wrap="nowrap">
      <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
        <circle cx="5" cy="5" r="5" fill={shown.color} />
      </svg>
      <Text size="sm" span>
        {shown.label}
      </Text>
    </Group>
  );
}

export const MONITOR_STATE_OPTIONS = Object.entries(STATES).map(([value, { label }]) => ({ value, label }));
