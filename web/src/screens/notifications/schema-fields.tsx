// The inputs of a form generated from a JSON Schema (schema-form-model.ts): one labelled Mantine input per field, its
// description and its inline error from the API's problem+json; secrets masked, and kept when left empty.
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { ChoicesField } from './choices-field';
import type { FieldValue, FormField, FormValues } from './schema-form-model';

export interface SchemaFieldsProps {
  fields: readonly FormField[];
  values: FormValues;
  onChange: (name: string, value: FieldValue) => void;
  /** Inline errors by field name. */
  errors: Partial<Record<string, string>>;
  /** Changing a stored object: secrets are hidden, and left empty they stay as they are. */
  editing: boolean;
}

export function SchemaFields(props: SchemaFieldsProps) {
  return (
    <>
      {props.fields.map((field) => (
        <SchemaField key={field.name} field={field} {...props} />
      ))}
    </>
  );
}

function SchemaField({ field, values, onChange, errors, editing }: SchemaFieldsProps & { field: FormField }) {
  const value = values[field.name];
  const common = {
    label: field.label,
    description: field.description,
    required: field.required,
    error: errors[field.name],
  };
  switch (field.kind) {
    case 'secret':
      return (
        <PasswordInput
          {...common}
          required={field.required && !editing}
          description={[
            field.description,
            editing
              ? 'Saved and hidden: leave empty to keep it.'
              : field.generated
                ? 'Leave empty to generate one: it is shown once, after creating.'
                : '',
          ]
            .filter(Boolean)
            .join(' ')}
          autoComplete="off"
          aria-invalid={errors[field.name] !== undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          min={field.min}
          max={field.max}
          allowDecimal={false}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(field.name, typeof v === 'number' ? v : undefined)}
          maw={240}
        />
      );
    case 'boolean':
      return (
        <Checkbox
          label={field.label}
          description={field.description}
          error={errors[field.name]}
          checked={value === true}
          onChange={(e) => onChange(field.name, e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          value={typeof value === 'string' && value !== '' ? value : null}
          onChange={(v) => onChange(field.name, v ?? '')}
          clearable={!field.required && field.default === undefined}
          maw={320}
        />
      );
    case 'checkboxes':
      if (field.all !== undefined)
        return <ChoicesField field={field} value={value} onChange={onChange} error={errors[field.name]} />;
      return (
        <Checkbox.Group
          {...common}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={(v) => onChange(field.name, v)}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
            {(field.options ?? []).map((option) => (
              <Checkbox key={option} value={option} label={option} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      );
    case 'list':
      return (
        <TagsInput
          {...common}
          description={`${field.description ? `${field.description} ` : ''}Enter or comma after each.`}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={(v) => onChange(field.name, v)}
          splitChars={[',', ' ']}
          clearable
        />
      );
    case 'map':
      return (
        <PairsField
          field={field}
          value={Array.isArray(value) ? (value as { name: string; value: string }[]) : []}
          onChange={onChange}
          error={errors[field.name]}
          editing={editing}
        />
      );
    case 'object':
      return <ObjectField field={field} values={values} onChange={onChange} errors={errors} editing={editing} />;
    default:
      return (
        <TextInput
          {...common}
          type={field.inputType ?? 'text'}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
          styles={
            field.inputType === 'url' ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined
          }
        />
      );
  }
}

/** A group of fields behind a switch (a channel's optional part): its fields shown while it is on. */
function ObjectField({
  field,
  values,
  onChange,
  errors,
  editing,
}: Omit<SchemaFieldsProps, 'fields'> & { field: FormField }) {
  const value = values[field.name];
  return (
    <Fieldset legend={field.label} variant="unstyled">
      <Stack gap="sm">
        <Switch
          label={`Use ${field.label.toLowerCase()}`}
          description={field.description}
          checked={value === true}
          onChange={(e) => onChange(field.name, e.currentTarget.checked)}
        />
        {value === true && (
          <SchemaFields
            fields={field.fields ?? []}
            values={values}
            onChange={onChange}
            errors={errors}
            editing={editing}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

/** Name/value pairs (a webhook's extra headers): rows of two labelled inputs, added and removed one by one. */
function PairsField({
  field,
  value,
  onChange,
  error,
  editing,
}: {
  field: FormField;
  value: { name: string; value: string }[];
  onChange: SchemaFieldsProps['onChange'];
  error: string | undefined;
  editing: boolean;
}) {
  const set = (rows: { name: string; value: string }[]) => onChange(field.name, rows);
  const hidden = editing ? ' Saved ones are hidden: any entered here replace them all; none entered keeps them.' : '';
  return (
    <Fieldset legend={field.label} variant="unstyled">
      <Stack gap="xs">
        {(field.description || hidden) && (
          <div style={{ fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-dimmed)' }}>
            {field.description}
            {hidden}
          </div>
        )}
        {value.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place; they are edited in place
          <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={`Name ${i + 1}`}
              value={row.name}
              onChange={(e) => set(value.map((r, j) => (j === i ? { ...r, name: e.currentTarget.value } : r)))}
              style={{ flex: 1 }}
            />
            <PasswordInput
              label={`Value ${i + 1}`}
              autoComplete="off"
              value={row.value}
              onChange={(e) => set(value.map((r, j) => (j === i ? { ...r, value: e.currentTarget.value } : r)))}
              style={{ flex: 2 }}
            />
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`Remove ${row.name || `row ${i + 1}`}`}
              onClick={() => set(value.filter((_, j) => j !== i))}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        {error && (
          <div role="alert" style={{ color: 'var(--mantine-color-error)', fontSize: 'var(--mantine-font-size-xs)' }}>
            {error}
          </div>
        )}
        <div>
          <Button size="xs" variant="default" onClick={() => set([...value, { name: '', value: '' }])}>
            Add {field.label.toLowerCase().replace(/s$/, '')}
          </Button>
        </div>
      </Stack>
    </Fieldset>
  );
}
