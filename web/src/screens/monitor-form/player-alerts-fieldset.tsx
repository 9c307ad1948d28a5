// The monitor form's "Player alerts" (game monitors only): full for a while, a queue, players outside a band, an
// empty server that is usually busy, how long before those alert, and which changes are announced; each with its unit
// and the API's error under it.
import { Checkbox, Fieldset, Group, NumberInput, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';
import { changeChoices, defaultForMin, type PlayerAlertValues } from './player-alerts';
import type { JsonSchema } from './schema-form';

type NumberName = 'fullForMin' | 'queueAbove' | 'bandMin' | 'bandMax' | 'forMin';

export function PlayerAlertsFieldset({
  values,
  onChange,
  schema,
  errors,
}: {
  values: PlayerAlertValues;
  onChange: (update: (prev: PlayerAlertValues) => PlayerAlertValues) => void;
  schema: JsonSchema | undefined;
  errors: FormErrors<string>;
}) {
  const error = (name: string) => errors.fields[`playerAlerts.${name}`];
  const number = (
    name: NumberName,
    path: string,
    props: { label: string; description?: string; min: number },
    shared?: string | boolean,
  ) => (
    <NumberInput
      id={`field-playerAlerts.${path}`}
      {...props}
      placeholder={name === 'forMin' ? `Default: ${defaultForMin(schema) ?? 5}` : 'Off'}
      allowDecimal={false}
      // Out-of-range values reach the API, which names the field and its bounds.
      clampBehavior="none"
      value={values[name]}
      onChange={(v) => onChange((prev) => ({ ...prev, [name]: String(v) }))}
      error={error(path) ?? shared}
    />
  );
  const bandError = error('band');
  return (
    <Fieldset legend="Player alerts">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Alerts on what the server reports, sent like its other events. Leave a field empty to turn its alert off.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {number('fullForMin', 'fullForMin', {
            label: 'Full for (minutes)',
            description: 'Alert once every slot has been taken this long.',
            min: 1,
          })}
          {number('queueAbove', 'queueAbove', {
            label: 'Queue above (players)',
            description: 'Alert once more players than this wait to join.',
            min: 0,
          })}
        </SimpleGrid>
        {/* The band's own error (min above max) is said under its first bound; both are marked. */}
        <Group grow align="flex-start" gap="sm">
          {number(
            'bandMin',
            'band.min',
            { label: 'Fewest players', description: 'Alert below this many players online.', min: 0 },
            bandError,
          )}
          {number(
            'bandMax',
            'band.max',
            { label: 'Most players', description: 'Alert above this many players online.', min: 0 },
            bandError !== undefined,
          )}
        </Group>
        <Switch
          id="field-playerAlerts.emptyFromUsual"
          label="Alert when it empties"
          description="Nobody online while the server answers and usually has players (the last 7 days)."
          checked={values.emptyFromUsual}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            onChange((prev) => ({ ...prev, emptyFromUsual: checked }));
          }}
          error={error('emptyFromUsual')}
        />
        {number('forMin', 'forMin', {
          label: 'Wait before alerting (minutes)',
          description: 'How long the queue, the band or an empty server must last before the alert.',
          min: 1,
        })}
        <Checkbox.Group
          id="field-playerAlerts.changes"
          label="Announce changes of"
          description="An event when the server reports a new value."
          value={values.changes}
          onChange={(changes) => onChange((prev) => ({ ...prev, changes }))}
          error={error('changes')}
        >
          <Group gap="md" mt={6}>
            {changeChoices(schema).map((c) => (
              <Checkbox key={c.value} value={c.value} label={c.label} />
            ))}
          </Group>
        </Checkbox.Group>
        {errors.fields['playerAlerts'] && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {errors.fields['playerAlerts']}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
