// Whether the page shows who is online (issue 36): off by default, since player names are personal data.
import { Switch } from '@mantine/core';

export function PlayerNamesSwitch({
  checked,
  onChange,
  readOnly,
  error,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  readOnly: boolean;
  error: string | undefined;
}) {
  return (
    <Switch
      label="Show who is online"
      description="The names of the players, where a monitor lists them (its player names option), on the page, its widget and its JSON. Never in RSS, llms.txt or MCP."
      checked={checked}
      disabled={readOnly}
      onChange={(e) => onChange(e.currentTarget.checked)}
      error={error}
    />
  );
}
