// The report's range: a preset, or two days of the user's own (kept when switching to Custom), and the series' points
// per day or per month.
import { Group, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { type DayRange, RANGE_PRESETS, type RangePreset } from './range';

export function RangePicker({
  preset,
  onPreset,
  custom,
  onCustom,
  granularity,
  onGranularity,
  errors,
}: {
  preset: RangePreset;
  onPreset: (preset: RangePreset) => void;
  custom: DayRange;
  onCustom: (range: DayRange) => void;
  granularity: 'day' | 'month';
  onGranularity: (granularity: 'day' | 'month') => void;
  errors: Partial<Record<'from' | 'to', string | undefined>>;
}) {
  return (
    <Stack gap="xs">
      <Group gap="md" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Range"
          data={[...RANGE_PRESETS]}
          value={preset}
          onChange={(v) => onPreset(v as RangePreset)}
        />
        <SegmentedControl
          aria-label="Points per"
          data={[
            { value: 'day', label: 'Per day' },
            { value: 'month', label: 'Per month' },
          ]}
          value={granularity}
          onChange={(v) => onGranularity(v as 'day' | 'month')}
        />
      </Group>
      {preset === 'custom' && (
        <Group gap="sm" align="flex-start">
          <TextInput
            type="date"
            label="From"
            description="The first day, included (UTC)."
            value={custom.from}
            onChange={(e) => onCustom({ ...custom, from: e.currentTarget.value })}
            error={errors.from}
          />
          <TextInput
            type="date"
            label="To"
            description="The last day, included; at most 400 days."
            value={custom.to}
            onChange={(e) => onCustom({ ...custom, to: e.currentTarget.value })}
            error={errors.to}
          />
        </Group>
      )}
    </Stack>
  );
}
