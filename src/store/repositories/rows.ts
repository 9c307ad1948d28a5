// Rows and domain objects that hold the same fields under two spellings: snake_case columns, camelCase properties.
// One list of fields serves both directions, so a repository's reads and writes cannot drift apart.

/** `organizationId` → `organization_id`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The columns for these fields of a domain object, values as they are; other properties are left out. */
export function toColumns<T extends object, K extends keyof T & string>(
  source: T,
  fields: readonly K[],
): { [P in K as SnakeCase<P>]: T[P] } {
  const row: Record<string, unknown> = {};
  for (const field of fields) row[snakeCase(field)] = source[field];
  return row as { [P in K as SnakeCase<P>]: T[P] };
}

/** These fields of a domain object read from a row's columns, values as they are; other columns are left out. */
export function fromColumns<R extends { [P in K as SnakeCase<P>]: unknown }, K extends string>(
  row: R,
  fields: readonly K[],
): { [P in K]: R[SnakeCase<P> & keyof R] } {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = (row as Record<string, unknown>)[snakeCase(field)];
  return out as { [P in K]: R[SnakeCase<P> & keyof R] };
}
