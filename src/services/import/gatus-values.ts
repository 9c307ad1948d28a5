// Gatus's scalar values as Warden reads them: Go durations ("1h30m"), its $VAR and ${VAR} references (kept as
// warden.yaml's ${VAR} placeholders), and keys made from names.
import { envName as keyedEnvName } from './keys.js';

// Micro is written \u00b5 (micro sign) or \u03bc (Greek mu); escaped, so the bundle's source stays one byte a character.
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g;
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  '\u00b5s': 1e-3,
  '\u03bcs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a Go duration ("30s", "1h30m", "250ms"), or undefined when it is not one (an ${ENV} reference, a typo). */
export function goDurationMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value === 0 ? 0 : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '0') return 0;
  if (!/^((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, amount = '0', unit = 's'] of text.matchAll(DURATION_PART)) ms += Number(amount) * (UNIT_MS[unit] ?? 0);
  return ms;
}

/**
 * A Gatus value with its environment references in warden.yaml's form: `$NAME` and `${NAME}` become `${NAME}` (Warden
 * substitutes them when the file is applied), and Gatus's escaped `$$` becomes a plain `$`.
 */
export function wardenEnvText(text: string): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced?: string, bare?: string) => (match === '$$' ? '$' : `\${${braced ?? bare}}`),
  );
}

/** Every string of a parsed YAML value through wardenEnvText (Gatus expands references anywhere in its file). */
export function withWardenEnv(value: unknown): unknown {
  if (typeof value === 'string') return wardenEnvText(value);
  if (Array.isArray(value)) return value.map(withWardenEnv);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withWardenEnv(v)]));
  return value;
}

/** Whether a value is (or holds) an environment reference, whose real value only `config apply` will know. */
export function hasEnvReference(value: unknown): boolean {
  return typeof value === 'string' && /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value);
}

/** The name of the environment variable a secret of the Gatus file is read from: GATUS_ plus the words, upper-case. */
export const envName = (...words: string[]) => keyedEnvName('GATUS', ...words);

/** Characters of a name or title Warden keeps. */
const TITLE_CHARS = 200;

/** A string's text without surrounding blanks, or undefined when it is not a string or is blank. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A name or title cut to Warden's length. */
export function clip(text: string): string {
  return text.length > TITLE_CHARS ? text.slice(0, TITLE_CHARS) : text;
}

export { keyAllocator, keyFromName } from './keys.js';
