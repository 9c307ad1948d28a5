// A form generated from a JSON Schema (GET /api/v1/notification-channel-types: each type's `config`, and the shared
// `rules`): the fields a schema asks for, their values as inputs hold them, and the JSON body they make.
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export type FieldKind = 'text' | 'secret' | 'number' | 'boolean' | 'select' | 'checkboxes' | 'list' | 'map' | 'object';

export interface FormField {
  /** Its path in the body, dotted (`config.url`, `rules.flap.changes`): also the name problem+json issues use. */
  name: string;
  label: string;
  description: string | undefined;
  kind: FieldKind;
  required: boolean;
  /** text: the input's type. */
  inputType?: 'url' | 'email' | 'text';
  options?: string[];
  min?: number;
  max?: number;
  default?: unknown;
  /** object: its fields. */
  fields?: FormField[];
  /** secret: Warden generates one when a new object leaves it empty. */
  generated?: boolean;
  /** checkboxes: each option's label and line of help, when the server names them. */
  choices?: Choice[];
  /** checkboxes: the explicit choice that stands for leaving the field out ("All events"); its value is ALL. */
  all?: string;
}

export interface Choice {
  value: string;
  label: string;
  description: string;
}

/** The value of a checkbox list with an `all` choice while that choice is taken: the field is left out of the body. */
export const ALL = 'all';

/** What inputs hold: text, numbers, switches, lists of strings, name/value pairs; an optional object's switch. */
export type FieldValue = string | number | boolean | string[] | { name: string; value: string }[] | undefined;
export type FormValues = Record<string, FieldValue>;

/** Names people read where a property's name says too little; any other property is spelled out from its name. */
const LABELS: Record<string, string> = {
  to: 'Recipients',
  from: 'Sender',
  secure: 'Encryption',
  tlsRejectUnauthorized: 'Verify the SMTP server’s certificate',
  headers: 'Extra headers',
  secret: 'Signing secret',
  events: 'Events',
  monitors: 'Only these monitors (keys)',
  pages: 'Only these pages (slugs)',
  groups: 'Only these component groups',
  holdSec: 'Hold before sending (seconds)',
  remindEveryMin: 'Remind while down, every (minutes)',
  quietDuringMaintenance: 'Quiet during maintenance',
  flap: 'Flap damping',
  changes: 'Changes that make it flapping',
  windowMin: 'Window (minutes)',
  tlsDays: 'Warn before a certificate expires (days)',
};
const WORDS: Record<string, string> = { url: 'URL', api: 'API', id: 'ID', tls: 'TLS', smtp: 'SMTP', http: 'HTTP' };

export function labelOf(property: string, schema: JsonSchema): string {
  if (schema.title) return schema.title;
  const known = LABELS[property];
  if (known) return known;
  const words = property
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((w) => WORDS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/**
 * The fields of an object schema, under `prefix` (`config`, `rules`); `secrets` are masked, and those of them in
 * `generated` say so.
 */
export function fieldsOf(
  schema: JsonSchema,
  prefix: string,
  secrets: readonly string[] = [],
  generated: readonly string[] = [],
): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([property, child]) => {
    const field = fieldOf(property, child, `${prefix}.${property}`, required.has(property), secrets.includes(property));
    return field.kind === 'secret' && generated.includes(property) ? { ...field, generated: true } : field;
  });
}

/**
 * A checkbox list (`rules.events`) made explicit: each option with its label and help, and `all`, the choice that
 * leaves the field out (the server's "every kind when absent"), instead of "nothing ticked".
 */
export function withChoices(fields: FormField[], name: string, choices: readonly Choice[], all: string): FormField[] {
  return fields.map((field) =>
    field.name === name && field.kind === 'checkboxes'
      ? { ...field, choices: choices.filter((c) => field.options?.includes(c.value)), all }
      : field,
  );
}

function fieldOf(property: string, schema: JsonSchema, name: string, required: boolean, secret: boolean): FormField {
  const base = {
    name,
    label: labelOf(property, schema),
    description: schema.description,
    required,
    default: schema.default,
  };
  // A choice of shapes (`to`: one address or several; `chatId`: a number or a name; `from`: an address or an object):
  // a list when one shape is a list of strings, else the text one.
  const shape = schema.anyOf
    ? (schema.anyOf.find((s) => typeOf(s) === 'array') ??
      schema.anyOf.find((s) => typeOf(s) === 'string') ??
      schema.anyOf[0] ??
      {})
    : schema;
  const type = typeOf(shape);
  if (secret && type === 'object') return { ...base, kind: 'map' };
  if (secret) return { ...base, kind: 'secret' };
  if (shape.enum) return { ...base, kind: 'select', options: shape.enum.map(String) };
  if (type === 'boolean') return { ...base, kind: 'boolean' };
  if (type === 'integer' || type === 'number') return { ...base, kind: 'number', ...bounds(shape) };
  if (type === 'array')
    return {
      ...base,
      kind: shape.items?.enum ? 'checkboxes' : 'list',
      ...(shape.items?.enum ? { options: shape.items.enum.map(String) } : {}),
    };
  if (type === 'object' && !shape.properties) return { ...base, kind: 'map' };
  if (type === 'object') return { ...base, kind: 'object', fields: fieldsOf(shape, name) };
  return {
    ...base,
    kind: 'text',
    inputType: shape.format === 'uri' ? 'url' : shape.format === 'email' ? 'email' : 'text',
  };
}

function bounds(schema: JsonSchema): { min?: number; max?: number } {
  // zod writes ±MAX_SAFE_INTEGER for an unbounded integer: no bound worth showing.
  const sane = (n: number | undefined) => (n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  const min = sane(schema.minimum);
  const max = sane(schema.maximum);
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** Every field, nested ones included, in order: for inline errors. */
export function allFields(fields: readonly FormField[]): FormField[] {
  return fields.flatMap((f) => [f, ...allFields(f.fields ?? [])]);
}

/**
 * The inputs' starting values from a stored object (a channel's config or rules), or the schema's defaults for a new
 * one. A secret starts empty: the API shows it redacted, and an empty secret is kept as it is.
 */
export function initialValues(fields: readonly FormField[], stored: Record<string, unknown> | undefined): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const key = field.name.split('.').pop() as string;
    const value = stored?.[key];
    switch (field.kind) {
      case 'secret':
      case 'map':
        values[field.name] =
          field.kind === 'map' && isRecord(value)
            ? Object.entries(value).map(([name, v]) => ({ name, value: String(v) }))
            : field.kind === 'map'
              ? []
              : '';
        break;
      case 'object':
        values[field.name] = isRecord(value);
        Object.assign(values, initialValues(field.fields ?? [], isRecord(value) ? value : undefined));
        break;
      case 'boolean':
        values[field.name] =
          typeof value === 'boolean' ? value : typeof field.default === 'boolean' ? field.default : undefined;
        break;
      case 'number':
        values[field.name] =
          typeof value === 'number'
            ? value
            : stored === undefined && typeof field.default === 'number'
              ? field.default
              : undefined;
        break;
      case 'checkboxes':
      case 'list':
        values[field.name] = Array.isArray(value)
          ? value.map(String)
          : field.all !== undefined
            ? ALL
            : typeof value === 'string'
              ? [value]
              : [];
        break;
      default:
        values[field.name] =
          value !== undefined && value !== null && typeof value !== 'object'
            ? String(value)
            : stored === undefined && typeof field.default === 'string'
              ? field.default
              : '';
    }
  }
  return values;
}

/**
 * The JSON the inputs make. Empty inputs are left out (the server's defaults apply, an empty secret keeps the stored
 * one); with `previous` (a change), a field that had a value and is now empty is sent as null, which removes it.
 */
export function toJson(
  fields: readonly FormField[],
  values: FormValues,
  previous?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const key = field.name.split('.').pop() as string;
    const value = jsonOf(field, values);
    if (value !== undefined) out[key] = value;
    else if (
      previous &&
      previous[key] !== undefined &&
      field.kind !== 'secret' &&
      !(field.kind === 'map' && previous[key] === '[redacted]')
    )
      out[key] = null;
  }
  return out;
}

function jsonOf(field: FormField, values: FormValues): unknown {
  const value = values[field.name];
  switch (field.kind) {
    case 'object':
      return value === true ? toJson(field.fields ?? [], values) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'checkboxes':
      // With an `all` choice, "only these" with none ticked is sent as it is: an empty list gets nothing.
      if (field.all !== undefined) return Array.isArray(value) ? value : undefined;
      return Array.isArray(value) && value.length > 0 ? value : undefined;
    case 'list':
      return Array.isArray(value) && value.length > 0 ? value : undefined;
    case 'map': {
      const pairs = Array.isArray(value)
        ? (value as { name: string; value: string }[]).filter((p) => p.name.trim() !== '')
        : [];
      return pairs.length > 0 ? Object.fromEntries(pairs.map((p) => [p.name.trim(), p.value])) : undefined;
    }
    default:
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
