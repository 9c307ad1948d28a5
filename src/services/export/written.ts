// How the exported file writes values: defaults and absent fields left out, times in ISO 8601, lists in a stable order.

/** ISO 8601 in UTC, without milliseconds when there are none: what the file's readers write. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export function byKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareText(key(a), key(b)));
}

/** Code-point order: the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function unlessDefault<T>(value: T, fallback: T): T | undefined {
  return value === fallback ? undefined : value;
}

export function nonEmpty<T>(items: readonly T[]): T[] | undefined {
  return items.length > 0 ? [...items] : undefined;
}

export function nonEmptyObject(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

/** Leaves out what is undefined: the file omits defaults and absent fields. */
export function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

export function list(items: readonly string[]): string {
  return items.join(', ');
}
