// Whether the page announces its monitors' game changes (version, map, wipe): off by default; see docs/monitors.md,
// "Game changes on pages".
import { Switch } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';

/** `state`: the form's value and its setter (useState's pair). */
export function GameChangesSwitch({
  state: [checked, onChange],
  readOnly,
  errors,
}: {
  state: [boolean, (checked: boolean) => void];
  readOnly: boolean;
  errors: FormErrors<'announceGameChanges'> | null;
}) {
  return (
    <Switch
      label="Announce server changes"
      description="Version, map and wipe changes of the page's monitors: on the page (the last 24 hours), in its feed and to its subscribers."
      checked={checked}
      disabled={readOnly}
      onChange={(e) => onChange(e.currentTarget.checked)}
      error={errors?.fields.announceGameChanges}
    />
  );
}
