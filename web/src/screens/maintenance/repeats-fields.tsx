// The maintenance form's "Repeats" section: none, weekly on days at a time, a custom RRULE or cron, in a time zone,
// each occurrence lasting a number of minutes (docs/api.md, recurring windows).
import { Chip, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Repeats, RepeatsMode } from './repeats';
import { WEEKDAYS } from './repeats';

const MODES: { value: RepeatsMode; label: string }[] = [
  { value: 'none', label: 'Does not repeat' },
  { value: 'weekly', label: 'Weekly, on days at a time' },
  { value: 'rrule', label: 'Custom rule (RRULE)' },
  { value: 'cron', label: 'Cron expression' },
];

export function RepeatsFields({
  value,
  onChange,
  error,
}: {
  value: Repeats;
  onChange: (next: Repeats) => void;
  error: string | undefined;
}) {
  const set = (patch: Partial<Repeats>) => onChange({ ...value, ...patch });
  const modes = value.slots.length > 1 ? [...MODES, { value: 'kept' as const, label: 'Several slots (kept)' }] : MODES;
  return (
    <Stack gap="xs">
      <NativeSelect
        label="Repeats"
        data={modes}
        value={value.mode}
        onChange={(e) => set({ mode: e.currentTarget.value as RepeatsMode })}
        error={value.mode === 'kept' ? error : undefined}
      />
      {value.mode === 'weekly' && (
        <Group gap="xs" align="flex-end">
          <Chip.Group multiple value={value.days} onChange={(days) => set({ days })}>
            <Group gap={4} role="group" aria-label="Days">
              {WEEKDAYS.map((d) => (
                <Chip key={d} value={d} size="xs">
                  {d}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <TextInput type="time" label="At" value={value.time} onChange={(e) => set({ time: e.currentTarget.value })} />
        </Group>
      )}
      {value.mode === 'rrule' && (
        <TextInput
          label="RRULE"
          description="e.g. FREQ=MONTHLY;BYDAY=1SU;BYHOUR=3;BYMINUTE=0"
          value={value.rrule}
          onChange={(e) => set({ rrule: e.currentTarget.value })}
          error={error}
        />
      )}
      {value.mode === 'cron' && (
        <TextInput
          label="Cron"
          description="minute hour day month weekday, e.g. 0 2 * * 1"
          value={value.cron}
          onChange={(e) => set({ cron: e.currentTarget.value })}
          error={error}
        />
      )}
      {value.mode !== 'none' && value.mode !== 'kept' && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Time zone"
            value={value.timezone}
            onChange={(e) => set({ timezone: e.currentTarget.value })}
            error={value.mode === 'weekly' ? error : undefined}
          />
          <NumberInput
            label="Duration (minutes)"
            min={1}
            max={10_080}
            value={value.durationMin}
            onChange={(n) => set({ durationMin: typeof n === 'number' ? n : Number(n) || 1 })}
          />
        </SimpleGrid>
      )}
      {value.mode !== 'none' && (
        <Text size="xs" c="dimmed">
          The window is in maintenance during each occurrence, from now on; the page shows the next one.
        </Text>
      )}
    </Stack>
  );
}
