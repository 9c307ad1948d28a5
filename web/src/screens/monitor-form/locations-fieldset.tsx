// The monitor form's other locations: where else the monitor runs ("edge" and the organization's relays, its own place
// left out) and its quorum (down when that many locations see it down; empty: a majority). Not for push monitors.
import { Fieldset, MultiSelect, NumberInput, Stack } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';
import type { MonitorDraft } from './use-monitor-draft';

export function LocationsFieldset({ draft, errors }: { draft: MonitorDraft; errors: FormErrors<string> }) {
  if (draft.place === 'push') return null;
  const own = draft.place === 'relay' ? draft.relay : 'edge';
  const relays = draft.relays.data?.relays ?? [];
  const options = [
    { value: 'edge', label: 'Warden itself (edge)' },
    ...relays.map((r) => ({ value: r.key, label: `${r.name} (${r.key})` })),
  ];
  const data = [
    ...options,
    // A location no relay has any longer stays visible to remove.
    ...draft.locations.filter((l) => !options.some((o) => o.value === l)).map((l) => ({ value: l, label: l })),
  ].filter((o) => o.value !== own || draft.locations.includes(o.value));
  const places = 1 + draft.locations.length;
  return (
    <Fieldset legend="Other locations">
      <Stack gap="sm">
        <MultiSelect
          id="field-locations"
          label="Also checked from"
          description="Each location checks the monitor on its interval; the monitor's state is decided over them."
          data={data}
          value={draft.locations}
          onChange={draft.setLocations}
          placeholder={draft.locations.length === 0 ? 'Its own place only' : undefined}
          error={errors.fields['locations']}
          searchable
          clearable
          hidePickedOptions
        />
        {draft.locations.length > 0 && (
          <NumberInput
            id="field-quorum"
            label="Quorum"
            description={`Down when at least this many of the ${places} locations see it down; empty: a majority of those heard from.`}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            value={draft.quorum}
            onChange={(v) => draft.setQuorum(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
            error={errors.fields['quorum']}
          />
        )}
      </Stack>
    </Fieldset>
  );
}
