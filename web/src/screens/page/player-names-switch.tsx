// Whether the page shows who is online (issue 36): off by default, since player names are personal data.
import { Switch } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';

/** `state`: the form's value and its setter (useState's pair). */
export function PlayerNamesSwitch({
  state: [checked, onChange],
  readOnly,
  errors,
}: {
  state: [boolean, (checked: boolean) => void];
  readOnly: boolean;
  errors: FormErrors<'showPlayerNames'> | null;
}) {
  return (
    <Switch
      label="Show who is online"
      description="The names of the players, where a monitor lists them (its player names option), on the page, its widget and its JSON. Never in RSS, llms.txt or MCP."
      checked={checked}
      disabled={readOnly}
      onChange={(e) => onChange(e.currentTarget.checked)}
      error={errors?.fields.showPlayerNames}
    />
  );
}
