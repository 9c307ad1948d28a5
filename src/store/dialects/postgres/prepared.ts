// Named (prepared) statements for the statements ingest sends on every commit: PostgreSQL parses and plans each once
// per connection instead of once per commit. A statement is named by its text, which stays the same whatever the
// number of rows (the rows travel as arrays, set-statements.ts); the pool's clients name it (connect.ts).

const names = new Map<string, string>();

/** Sends `text` as a named statement from now on; returns it, for use in place. */
export function prepared(text: string): string {
  if (!names.has(text)) names.set(text, `warden_ingest_${names.size}`);
  return text;
}

/** The name of a statement registered with `prepared`, or undefined. */
export function preparedName(text: unknown): string | undefined {
  return typeof text === 'string' ? names.get(text) : undefined;
}
