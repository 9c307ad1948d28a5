// A value of an imported file as text, for a note or a field: never through the value's own toString, which a file can
// replace (`name: {toString: 1}` makes String() throw).

/** Text for any parsed value: strings as they are, numbers and booleans written out, a mapping or list as JSON. */
export function fileText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return Array.isArray(value) ? '[list]' : '{mapping}';
  }
}

/** A number as Gatus or Kuma wrote it (a number, or its digits as text); NaN for anything else. */
export function fileNumber(value: unknown): number {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== ''
      ? Number(value)
      : Number.NaN;
}
