// Checks a parsed warden.yaml against its schema and lists every problem by path, in words for a person editing the
// file. Apart from the YAML reader (load.ts), so the server can check its built-in demo without loading the parser.
import type { z } from 'zod';
import { formatIssuePath } from '../domain/issue-path.js';
import { ConfigError } from './config-error.js';
import { type ConfigFile, configFileSchema } from './file-schema.js';

export function validateConfig(value: unknown, source: string): ConfigFile {
  const result = configFileSchema.safeParse(value, { error: plainMessage });
  if (result.success) return result.data;
  throw new ConfigError(
    source,
    result.error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`),
  );
}

/**
 * Messages for a person editing the file, where the field's own schema has none: a missing field is "required" (not
 * "expected string, received undefined"), and an unknown key names the nearest known one ("did you mean …?").
 */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code !== 'unrecognized_keys') return undefined;
  const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  const known = Object.keys(shape ?? {});
  const keys = issue.keys.map((key) => {
    const nearest = nearestName(key, known);
    return `"${key}"${nearest ? ` (did you mean ${nearest}?)` : ''}`;
  });
  return `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`;
}

/** The known name a typo most likely meant: at most a third of its letters (and at least one) edited away. */
function nearestName(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}
