// Reads warden.yaml: YAML 1.2, ${ENV_VAR} substitution in string values, validation that lists every problem by path.
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { formatIssuePath } from '../domain/issue-path.js';
import { type ConfigFile, configFileSchema } from './file-schema.js';

/** Config files are small; anything bigger is a mistake (or an attack on the parser). */
export const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigFile> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > CONFIG_MAX_BYTES) throw new ConfigError(file, [`the file is larger than ${CONFIG_MAX_BYTES} bytes`]);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: string }).code;
    throw new ConfigError(file, [code === 'ENOENT' ? 'the file does not exist' : `cannot be read: ${(error as Error).message}`]);
  }
  return parseConfigText(text, file, env);
}

export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv = process.env): ConfigFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      source,
      document.errors.map((e) => {
        const at = lineCounter.linePos(e.pos[0]);
        return `line ${at.line}, column ${at.col}: ${e.message.split('\n')[0]}`;
      }),
    );
  }
  const problems: string[] = [];
  substituteEnv(document.contents, [], env, problems);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return validateConfig(document.toJS({ maxAliasCount: 100 }) ?? {}, source);
}

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
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces ${NAME} and ${NAME:-default} inside string scalars, so a secret's characters can never break the YAML. */
function substituteEnv(node: YamlNode | null, path: PropertyKey[], env: NodeJS.ProcessEnv, problems: string[]): void {
  if (node === null) return;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      substituteEnv(pair.value as YamlNode | null, [...path, key], env, problems);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      substituteEnv(item as YamlNode, [...path, i], env, problems);
    });
  } else if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) {
    node.value = node.value.replace(ENV_REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      problems.push(`${formatIssuePath(path)}: environment variable ${name} is not set`);
      return '';
    });
  }
}
