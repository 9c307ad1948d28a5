// One form field drawn from its JSON Schema: the input its kind needs, its label (required marked), the schema's
// description as help, the default as placeholder, and the API's error under it.
import { NativeSelect, NumberInput, PasswordInput, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { type FieldValue, type FormField, REDACTED } from './schema-form';

export interface SchemaFieldProps {
  field: FormField;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  error: string | undefined;
  /** Editing a stored monitor: secrets read "[redacted]" and are kept when left so. */
  editing: boolean;
  /** The input's name in the form (config fields: `config.<name>`), for its id. */
  path: string;
}

export function SchemaField({ field, value, onChange, error, editing, path }: SchemaFieldProps) {
  const keepHint = editing && field.secret ? `Leave as ${REDACTED} to keep the current one.` : undefined;
  const description = [field.description, keepHint].filter(Boolean).join(' ') || undefined;
  const common = {
    id: `field-${path}`,
    label: field.label,
    description,
    error,
    withAsterisk: field.required,
    'aria-required': field.required || undefined,
  };
  const placeholder =
    field.default === undefined || typeof field.default === 'object' ? undefined : `Default: ${String(field.default)}`;
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          id={common.id}
          label={field.label}
          description={description}
          error={error}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'enum':
      return (
        <NativeSelect
          {...common}
          data={[
            ...(field.required || field.default !== undefined ? [] : [{ value: '', label: 'None' }]),
            ...field.options.map((o) => ({ value: o, label: o })),
          ]}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'integer':
    case 'number':
      return (
        <NumberInput
          {...common}
          placeholder={placeholder}
          min={field.minimum}
          max={field.maximum}
          // Out-of-range values reach the API, which names the field and its bounds.
          clampBehavior="none"
          allowDecimal={field.kind === 'number'}
          value={text}
          onChange={(v) => onChange(String(v))}
        />
      );
    case 'list':
      return (
        <TagsInput
          {...common}
          placeholder="Type and press Enter"
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
    case 'map':
      return (
        <Textarea
          {...common}
          description={[description, 'One per line: Name: value.'].filter(Boolean).join(' ')}
          rows={3}
          spellCheck={false}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'secret':
      return (
        <PasswordInput {...common} autoComplete="off" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    default:
      return (
        <TextInput
          {...common}
          placeholder={placeholder}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}
