// Reads warden.yaml: YAML 1.2, ${ENV_VAR} substitution in string values, validation that lists every problem by path.
import { readFile } from 'node:fs/promises';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { formatIssuePath } from '../domain/issue-path.js';
import { ConfigError } from './config-error.js';
import type { ConfigFile } from './file-schema.js';
import { validateConfig } from './validate.js';

/** Config files are small; anything bigger is a mistake (or an attack on the parser). */
export const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

export { ConfigError } from './config-error.js';
export { validateConfig } from './validate.js';

export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigFile> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > CONFIG_MAX_BYTES)
      throw new ConfigError(file, [`the file is larger than ${CONFIG_MAX_BYTES} bytes`]);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: string }).code;
    throw new ConfigError(file, [
      code === 'ENOENT' ? 'the file does not exist' : `cannot be read: ${(error as Error).message}`,
    ]);
  }
  return parseConfigText(text, file, env);
}

export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv = process.env): ConfigFile {
  let parsed: unknown;
  try {
    // YAML 1.2's core schema (as the `yaml` package reads by default): no timestamps, no `<<` merges, `yes` is a
    // string; a key given twice in one mapping is an error.
    parsed = load(text, { schema: CORE_SCHEMA });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    throw new ConfigError(source, [`line ${error.mark.line + 1}, column ${error.mark.column + 1}: ${error.reason}`]);
  }
  const expanded = expandedValues(parsed);
  if (expanded === 'cycle') throw new ConfigError(source, ['an alias refers to a value that contains it']);
  if (expanded > CONFIG_MAX_VALUES)
    throw new ConfigError(source, [
      `the file's aliases expand to more than ${CONFIG_MAX_VALUES} values (a file that repeats itself through anchors)`,
    ]);
  const problems: string[] = [];
  const substituted = substituteEnv(parsed, [], env, problems);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return validateConfig(substituted ?? {}, source);
}

/**
 * The most values (mappings, lists and scalars) a file may hold once its aliases are expanded. An alias is a
 * reference to an anchored value, so `a: &a [x, x]`, `b: &b [*a, *a]`… doubles at each line: a few hundred bytes that
 * expand to billions of values would hang validation. A file of 1,000 monitors holds ~20,000.
 */
export const CONFIG_MAX_VALUES = 1_000_000;

/** How many values `value` holds with its aliases expanded (each shared value counted once per use), or 'cycle'. */
function expandedValues(value: unknown): number | 'cycle' {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) throw CYCLE;
    open.add(node);
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      total = Math.min(total + size(child), Number.MAX_SAFE_INTEGER);
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  try {
    return size(value);
  } catch (error) {
    if (error === CYCLE) return 'cycle';
    throw error;
  }
}

const CYCLE = Symbol('cycle');

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * A copy of the parsed file with ${NAME} and ${NAME:-default} replaced inside string values (never keys), after
 * parsing, so a secret's characters can never break the YAML.
 */
function substituteEnv(value: unknown, path: PropertyKey[], env: NodeJS.ProcessEnv, problems: string[]): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value;
    return value.replace(ENV_REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (fallback !== undefined) return fallback;
      problems.push(`${formatIssuePath(path)}: environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteEnv(item, [...path, i], env, problems));
  // fromEntries defines each key as its own property, `__proto__` included.
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnv(item, [...path, key], env, problems)]),
    );
  return value;
}
