// The choices an apply sends besides the page and the servers, one entry each in APPLY_OPTIONS: a field the API adds
// to POST /api/v1/panels/apply (a time zone, a restart window…) is one more entry here, drawn and sent by its kind.
import { NumberInput, Switch, TextInput } from '@mantine/core';
import type { FormErrors } from '../../ui/form-errors';

export interface ApplyOption {
  /** The body's field, and the form's name for its errors (`body.<name>`). */
  name: string;
  label: string;
  description: string;
  kind: 'switch' | 'text' | 'integer';
  /** Shown first; a switch's is false and a text's empty unless said. */
  initial?: boolean | string;
}

export type OptionValues = Record<string, boolean | string>;

export const APPLY_OPTIONS: readonly ApplyOption[] = [
  {
    name: 'resources',
    label: 'Also a resources monitor for each server',
    description:
      'The panel’s own view of the server: running, CPU and memory. It keeps the API key in its config (as any Pterodactyl monitor does).',
    kind: 'switch',
  },
  {
    name: 'restarts',
    label: 'Restart schedules as maintenance',
    description:
      'Each server’s restart schedules become a recurring maintenance window on the page, so a planned restart alerts nobody.',
    kind: 'switch',
    initial: true,
  },
  {
    name: 'timezone',
    label: 'Panel time zone',
    description: 'The panel’s APP_TIMEZONE, which its schedules are read in (e.g. Europe/Berlin). UTC when empty.',
    kind: 'text',
  },
  {
    name: 'restartMinutes',
    label: 'Restart length (minutes)',
    description: 'How long a restart lasts after the task that restarts. 5 when empty.',
    kind: 'integer',
  },
  {
    name: 'prune',
    label: 'Remove servers the panel no longer lists',
    description:
      'Deletes the monitors, components and restart windows apply made for them; without it they are only listed as gone.',
    kind: 'switch',
  },
];

export function initialOptions(): OptionValues {
  return Object.fromEntries(APPLY_OPTIONS.map((o) => [o.name, o.initial ?? (o.kind === 'switch' ? false : '')]));
}

/** The options as the body takes them: switches as they are, texts and numbers only when given. */
export function optionsBody(values: OptionValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const option of APPLY_OPTIONS) {
    const value = values[option.name];
    if (option.kind === 'switch') body[option.name] = value === true;
    else if (typeof value === 'string' && value.trim() !== '')
      body[option.name] = option.kind === 'integer' && Number.isFinite(Number(value)) ? Number(value) : value.trim();
  }
  return body;
}

export function ApplyOptionFields({
  values,
  onChange,
  errors,
}: {
  values: OptionValues;
  onChange: (name: string, value: boolean | string) => void;
  errors: FormErrors<string>;
}) {
  return APPLY_OPTIONS.map((option) => {
    const common = {
      id: `panel-${option.name}`,
      label: option.label,
      description: option.description,
      error: errors.fields[option.name],
    };
    const value = values[option.name];
    if (option.kind === 'switch')
      return (
        <Switch
          key={option.name}
          {...common}
          checked={value === true}
          onChange={(e) => onChange(option.name, e.currentTarget.checked)}
        />
      );
    if (option.kind === 'integer')
      return (
        <NumberInput
          key={option.name}
          {...common}
          allowDecimal={false}
          value={typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(option.name, String(v))}
        />
      );
    return (
      <TextInput
        key={option.name}
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(option.name, e.currentTarget.value)}
      />
    );
  });
}
