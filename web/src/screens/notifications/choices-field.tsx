// A checkbox list the server names (a channel's events): an explicit "All events" choice, or only the ones ticked,
// each with its label and a line of help. "All" leaves the field out of the body (the server's default); "only these"
// with none ticked is sent as an empty list, and says what that means.
import { Checkbox, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { ALL, type FieldValue, type FormField } from './schema-form-model';

export function ChoicesField({
  field,
  value,
  onChange,
  error,
}: {
  field: FormField;
  value: FieldValue;
  onChange: (name: string, value: FieldValue) => void;
  error: string | undefined;
}) {
  const picked = Array.isArray(value) ? (value as string[]) : null;
  return (
    <Stack gap={6}>
      <Radio.Group
        label={field.label}
        description={field.description}
        error={error}
        value={picked ? 'some' : ALL}
        onChange={(mode) => onChange(field.name, mode === ALL ? ALL : [])}
      >
        <Stack gap={6} mt={6}>
          <Radio value={ALL} label={field.all} description="Everything below, and kinds added in later versions." />
          <Radio value="some" label="Only the ones ticked" />
        </Stack>
      </Radio.Group>
      {picked && (
        <Checkbox.Group
          aria-label={`${field.label}: the ones ticked`}
          value={picked}
          onChange={(v) => onChange(field.name, v)}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={8} mt={4} ml="lg">
            {(field.choices ?? []).map((choice) => (
              <Checkbox
                key={choice.value}
                value={choice.value}
                label={choice.label}
                description={
                  <>
                    {choice.description} <code>{choice.value}</code>
                  </>
                }
              />
            ))}
          </SimpleGrid>
          {picked.length === 0 && (
            <Text size="xs" c="orange" mt={6} ml="lg" role="status">
              None ticked: this channel gets no events (tests still reach it).
            </Text>
          )}
        </Checkbox.Group>
      )}
    </Stack>
  );
}
