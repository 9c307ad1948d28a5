// The escalation policy form: key (new ones only), name, the monitors it covers (every one, or those picked), and its
// steps in order (minutes after the alert opened, the channels told); the API's words shown under the field they name.
import { Button, Fieldset, Group, MultiSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type EscalationPolicy, savePolicy } from '../../api/alerts';
import { formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { MonitorsPicker } from '../maintenance/monitors-picker';

const FIELDS = ['key', 'name', 'monitors', 'steps'] as const;

interface StepDraft {
  /** A name for React's list, stable while steps are added and removed. */
  id: number;
  afterMin: number | string;
  channels: string[];
}

let stepIds = 0;
const draft = (afterMin: number, channels: string[] = []): StepDraft => ({ id: ++stepIds, afterMin, channels });

export function PolicyForm({
  policy,
  channels,
  onSaved,
  onCancel,
}: {
  policy: EscalationPolicy | undefined;
  channels: { key: string; name: string }[];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [key, setKey] = useState(policy?.key ?? '');
  const [name, setName] = useState(policy?.name ?? '');
  const [everyMonitor, setEveryMonitor] = useState(policy ? policy.monitors === null : true);
  const [monitors, setMonitors] = useState<string[]>(policy?.monitors ?? []);
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    (policy?.steps ?? [{ afterMin: 0, channels: [] }]).map((s) => draft(s.afterMin, s.channels)),
  );
  const save = useMutation({
    mutationFn: () =>
      savePolicy(policy?.id ?? null, {
        key: key.trim(),
        name: name.trim(),
        monitors: everyMonitor ? null : monitors,
        steps: steps.map((s) => ({ afterMin: Number(s.afterMin), channels: s.channels })),
      }),
    onSuccess: onSaved,
  });
  const errors = save.error ? formErrors(save.error, FIELDS) : noFormErrors<(typeof FIELDS)[number]>();
  const setStep = (index: number, change: Partial<Omit<StepDraft, 'id'>>) =>
    setSteps((all) => all.map((step, i) => (i === index ? { ...step, ...change } : step)));
  const options = channels.map((c) => ({ value: c.key, label: `${c.name} (${c.key})` }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={policy ? `Edit ${policy.name}` : 'New escalation policy'}>
      <Stack gap="sm">
        {!policy && (
          <TextInput
            label="Key"
            description="How warden.yaml and the API name it: lowercase letters, digits, - and _."
            required
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
            error={errors.fields.key}
          />
        )}
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.fields.name}
        />
        <Switch
          label="Every monitor"
          description="Off: only the monitors picked (a policy naming a monitor wins over one for every monitor)."
          checked={everyMonitor}
          onChange={(e) => setEveryMonitor(e.currentTarget.checked)}
        />
        {!everyMonitor && (
          <MonitorsPicker
            label="Monitors"
            description="The monitors whose alerts follow this policy."
            value={monitors}
            onChange={setMonitors}
            error={errors.fields.monitors}
          />
        )}
        <Fieldset legend="Steps" variant="unstyled">
          <Stack gap="xs">
            {steps.map((step, i) => (
              <Group key={step.id} align="flex-end" gap="xs" wrap="wrap" role="group" aria-label={`Step ${i + 1}`}>
                <NumberInput
                  label={`Step ${i + 1}: after (minutes)`}
                  min={0}
                  max={10_080}
                  allowDecimal={false}
                  w={170}
                  value={step.afterMin}
                  onChange={(value) => setStep(i, { afterMin: value })}
                />
                <MultiSelect
                  label={`Step ${i + 1}: channels`}
                  data={options}
                  value={step.channels}
                  onChange={(value) => setStep(i, { channels: value })}
                  placeholder={step.channels.length === 0 ? 'Choose channels' : undefined}
                  searchable
                  hidePickedOptions
                  style={{ flex: 1, minWidth: 200 }}
                  comboboxProps={{ withinPortal: true }}
                />
                {steps.length > 1 && (
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    onClick={() => setSteps((all) => all.filter((_, j) => j !== i))}
                    aria-label={`Remove step ${i + 1}`}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            ))}
            {errors.fields.steps && (
              <Text size="sm" c="red" role="alert">
                {errors.fields.steps}
              </Text>
            )}
            <Button
              variant="default"
              size="xs"
              w="fit-content"
              disabled={steps.length >= 10}
              onClick={() => {
                const last = Number(steps.at(-1)?.afterMin ?? 0);
                setSteps((all) => [...all, draft(last + 15)]);
              }}
            >
              Add a step
            </Button>
          </Stack>
        </Fieldset>
        <FormMessage message={errors.message} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {policy ? 'Save changes' : 'Create policy'}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
