// The page's `draftIncidents` setting: off (the default), or after how many minutes down a component's incident is
// prepared, and whether it waits for an operator or is published at once (docs/states.md, "Draft incidents").
import { NumberInput, Radio, Stack, Switch } from '@mantine/core';
import type { PageView } from '../../api/pages';

type DraftIncidents = PageView['draftIncidents'];

/** What turning it on starts from: the API's own defaults. */
const DEFAULTS: NonNullable<DraftIncidents> = { afterMin: 10, publish: 'draft' };

export function DraftIncidentsFields({
  state: [value, onChange],
  readOnly,
  error,
}: {
  state: [DraftIncidents, (next: DraftIncidents) => void];
  readOnly: boolean;
  error: string | undefined;
}) {
  return (
    <Stack gap="xs">
      <Switch
        label="Prepare draft incidents"
        description="When a component has been down a while, an incident naming it is prepared; nobody sees it until it is published."
        checked={value !== null}
        disabled={readOnly}
        onChange={(e) => onChange(e.currentTarget.checked ? DEFAULTS : null)}
        error={value === null ? error : undefined}
      />
      {value !== null && (
        <Stack gap="xs" pl="xl">
          <NumberInput
            label="After (minutes down)"
            description="From 1 to 1440."
            min={1}
            max={1440}
            allowDecimal={false}
            readOnly={readOnly}
            value={value.afterMin}
            onChange={(v) => onChange({ ...value, afterMin: typeof v === 'number' ? v : Number.parseInt(v, 10) })}
            error={error}
            maw={220}
          />
          <Radio.Group
            label="Then"
            value={value.publish}
            onChange={(v) => onChange({ ...value, publish: v as NonNullable<DraftIncidents>['publish'] })}
          >
            <Stack gap={6} mt={4}>
              <Radio value="draft" disabled={readOnly} label="Keep it as a draft until someone publishes it" />
              <Radio value="auto" disabled={readOnly} label="Publish it at once and tell subscribers" />
            </Stack>
          </Radio.Group>
        </Stack>
      )}
    </Stack>
  );
}
