// Reads warden.yaml: YAML 1.2, ${ENV_VAR} substitution in string values, validation that lists every problem by path.
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
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
