// A monitor form's fields read from the JSON Schemas of GET /api/v1/monitor-types: what input each property needs, its
// label, help, default and whether it is required, and the form's values turned back into the JSON the API takes.

/** The part of JSON Schema (2020-12) the API's generated schemas use. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
}

/**
 * text: one line (also for a property of several types, sent as text); secret: masked; list: tags of strings; map: a
 * "Name: value" line each (headers).
 */
export type FieldKind = 'text' | 'secret' | 'integer' | 'number' | 'boolean' | 'enum' | 'list' | 'map';

export interface FormField {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  description: string | undefined;
  default: unknown;
  options: string[];
  minimum: number | undefined;
  maximum: number | undefined;
  /** A secret kept as it is when sent back as this (the API shows stored secrets so). */
  secret: boolean;
}

export type FieldValue = string | boolean | string[];

export const REDACTED = '[redacted]';

/** The properties of an object schema as form fields, in the schema's order; `secrets` are masked. */
export function fieldsOf(schema: JsonSchema, secrets: readonly string[] = []): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const secret = secrets.includes(name);
    const base = kindOf(property);
    return {
      name,
      label: labelOf(name),
      kind: secret && base === 'text' ? 'secret' : base,
      required: required.has(name),
      description: property.description,
      default: property.default,
      options: (property.enum ?? []).map(String),
      minimum: property.minimum,
      maximum: property.maximum,
      secret,
    };
  });
}

function kindOf(property: JsonSchema): FieldKind {
  if (property.enum) return 'enum';
  const type = property.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'array' && property.items?.type === 'string') return 'list';
  if (type === 'object' && typeof property.additionalProperties === 'object') return 'map';
  return 'text';
}

const WORDS: Record<string, string> = {
  url: 'URL',
  id: 'ID',
  api: 'API',
  tls: 'TLS',
  json: 'JSON',
  https: 'HTTPS',
  dns: 'DNS',
  ca: 'CA',
  rdap: 'RDAP',
};
const UNITS: Record<string, string> = { ms: '(ms)', sec: '(s)' };

/** `panelUrl` → "Panel URL", `timeoutMs` → "Timeout (ms)". */
export function labelOf(name: string): string {
  const words = name.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const unit = words.length > 1 ? UNITS[words.at(-1) as string] : undefined;
  if (unit) words[words.length - 1] = unit;
  const text = words.map((w) => WORDS[w] ?? w).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a field shows first: the stored value when editing, else the default of a choice (others show it as a placeholder). */
export function initialValue(field: FormField, stored: unknown): FieldValue {
  const value =
    stored === undefined ? (field.kind === 'boolean' || field.kind === 'enum' ? field.default : undefined) : stored;
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'list':
      return Array.isArray(value) ? value.map(String) : [];
    case 'map':
      if (value === REDACTED) return REDACTED;
      return value && typeof value === 'object'
        ? Object.entries(value as Record<string, unknown>)
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join('\n')
        : '';
    default:
      if (value === undefined || value === null) return '';
      return Array.isArray(value) ? value.join(', ') : String(value);
  }
}

/**
 * A field's value as the API takes it. Creating, an empty field is left out (undefined: the default applies); editing,
 * it is null, which removes it from the stored config.
 */
export function jsonValue(field: FormField, value: FieldValue, editing: boolean): unknown {
  const empty = editing ? null : undefined;
  switch (field.kind) {
    case 'boolean':
      return editing || value !== (field.default ?? false) ? value : undefined;
    case 'list':
      return Array.isArray(value) && value.length > 0 ? value : editing ? [] : undefined;
    case 'integer':
    case 'number': {
      const text = String(value).trim();
      if (text === '') return empty;
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case 'map': {
      const text = String(value).trim();
      if (text === '') return empty;
      if (text === REDACTED) return REDACTED;
      return Object.fromEntries(
        text
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .map((line) => {
            const colon = line.indexOf(':');
            return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
          }),
      );
    }
    default: {
      const text = String(value);
      if (text.trim() === '') return empty;
      // A password is sent as typed; other text without the spaces a paste brings along.
      return field.kind === 'secret' ? text : text.trim();
    }
  }
}

/** The config object of the form's values; fields left out are not sent. */
export function configOf(
  fields: readonly FormField[],
  values: Record<string, FieldValue>,
  editing: boolean,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of fields) {
    const value = jsonValue(field, values[field.name] ?? initialValue(field, undefined), editing);
    if (value !== undefined) config[field.name] = value;
  }
  return config;
}
