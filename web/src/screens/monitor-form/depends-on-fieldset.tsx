// The monitor's parent (`dependsOn`): while the parent, or its parent, is down, this monitor is "unreachable" and its
// alerts are held back (docs/monitors.md, "Dependencies"). The API's refusal (a cycle, too deep) shows under it.
import { Fieldset } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';
import { MonitorPicker } from '../page/monitor-picker';
import type { MonitorDraft } from './use-monitor-draft';

export function DependsOnFieldset({ draft, errors }: { draft: MonitorDraft; errors: FormErrors<string> }) {
  return (
    <Fieldset legend="Dependency">
      <MonitorPicker
        id="field-dependsOn"
        label="Depends on"
        description="While the chosen monitor is down, this one's alerts are held back and it shows as unreachable. Leave empty for none (a relay's own parent then applies)."
        placeholder="No parent"
        value={draft.dependsOn}
        onChange={draft.setDependsOn}
        exclude={draft.monitorKeyValue}
        error={errors.fields['dependsOn']}
      />
    </Fieldset>
  );
}
