// `warden export`: an organization as warden.yaml text, each secret a ${NAME} placeholder, checked by the same loader
// (and with the same environment) that `warden config apply` will read it with.
import { PAGE_PASSWORD_MIN_CHARS } from '../domain/passwords.js';
import type { ServiceContext } from '../services/context.js';
import { type ExportedSecret, exportOrganization, type OrganizationExport } from '../services/export/organization.js';
import { ConfigError, parseConfigText } from './load.js';
import { formatWardenYaml } from './write.js';

export interface ExportedConfig {
  organization: { key: string; name: string };
  text: string;
  /** The environment variables the file names, in the order it names them. */
  variables: { name: string; what: string }[];
  /** Objects in the file, for the command's summary. */
  counts: Record<'relays' | 'monitors' | 'pages' | 'notifications' | 'escalationPolicies', number>;
}

/**
 * `${NAME}` inside a string would be read as a variable: the file writes a literal `${` as `${LITERAL:-$}{`, which the
 * loader turns back into `${` as long as LITERAL is not set.
 */
export const LITERAL_DOLLAR_VARIABLE = 'WARDEN_LITERAL_DOLLAR';
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export async function exportConfig(ctx: ServiceContext): Promise<ExportedConfig> {
  const exported = await exportOrganization(ctx);
  let escaped = false;
  const file = withPlaceholders(exported.file, exported.secrets, () => {
    escaped = true;
  });
  const text = formatWardenYaml(file, header(exported, escaped));
  // The file as `config apply` reads it, the stored secrets as its environment: what it declares is what is stored,
  // or the export names the problem instead of writing a file that would fail later on another machine.
  const env = Object.fromEntries(
    exported.secrets.map((s) => [s.variable, s.value ?? 'x'.repeat(PAGE_PASSWORD_MIN_CHARS)]),
  );
  try {
    parseConfigText(text, 'the exported file', env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Stored before a rule it now breaks, say: the operator fixes those objects rather than finding out on apply.
    throw new ConfigError(`the export of organization "${exported.organization.key}"`, error.problems);
  }
  const count = (key: string) => (Array.isArray(exported.file[key]) ? (exported.file[key] as unknown[]).length : 0);
  return {
    organization: exported.organization,
    text,
    variables: exported.secrets.map((s) => ({ name: s.variable, what: s.what })),
    counts: {
      relays: count('relays'),
      monitors: count('monitors'),
      pages: count('pages'),
      notifications: count('notifications'),
      escalationPolicies: count('escalationPolicies'),
    },
  };
}

/** A copy of the document with each secret replaced by its placeholder and every other string's `${` escaped. */
function withPlaceholders(
  document: Record<string, unknown>,
  secrets: readonly ExportedSecret[],
  onEscape: () => void,
): Record<string, unknown> {
  const variables = new Map(secrets.map((s) => [JSON.stringify(s.path), s.variable]));
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    const variable = variables.get(JSON.stringify(path));
    if (variable !== undefined) return `\${${variable}}`;
    if (typeof value === 'string') {
      if (!value.match(ENV_REFERENCE)) return value;
      onEscape();
      return value.replace(ENV_REFERENCE, (match) => `\${${LITERAL_DOLLAR_VARIABLE}:-$}${match.slice(1)}`);
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key])]));
    return value;
  };
  const out = walk(document, []) as Record<string, unknown>;
  // Secrets only a hash is kept of (page passwords) are not in the document: their placeholder is added where they go.
  for (const secret of secrets) if (secret.value === undefined) setAt(out, secret.path, `\${${secret.variable}}`);
  return out;
}

/** Sets a field of an object inside the document, after the fields that name the object (a page's password after its title). */
function setAt(document: Record<string, unknown>, path: readonly (string | number)[], value: string): void {
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], document) as Record<
    string,
    unknown
  >;
  const entries = Object.entries(parent);
  const at = Math.max(0, ...entries.map(([key], i) => (NAMING_FIELDS.includes(key) ? i + 1 : 0)));
  for (const key of Object.keys(parent)) delete parent[key];
  Object.assign(
    parent,
    Object.fromEntries([...entries.slice(0, at), [path.at(-1) as string, value], ...entries.slice(at)]),
  );
}

const NAMING_FIELDS = ['key', 'slug', 'name', 'title', 'description', 'customDomain'];

function header(exported: OrganizationExport, escaped: boolean): string[] {
  const { key, name } = exported.organization;
  const lines = [
    `Organization "${key}" (${name}), written by \`warden export\`.`,
    'Apply it to another Warden with: warden config apply FILE (it creates or updates these objects by key; check it first with warden config check FILE).',
  ];
  if (exported.secrets.length > 0) {
    const width = Math.max(...exported.secrets.map((s) => s.variable.length));
    lines.push(
      '',
      'Secrets are not in this file: each is a ${NAME} placeholder. Set these environment variables before applying it:',
    );
    for (const secret of exported.secrets) lines.push(`  ${secret.variable.padEnd(width)}  ${secret.what}`);
  }
  if (escaped)
    lines.push(
      '',
      `\${${LITERAL_DOLLAR_VARIABLE}:-$} stands for a literal "$" before "{" in a text: leave ${LITERAL_DOLLAR_VARIABLE} unset.`,
    );
  lines.push('', 'Not in this file:');
  for (const note of exported.notes) lines.push(`  - ${note}`);
  lines.push(
    '  - Check history, users and members, API keys, page subscribers and the audit log: `warden backup` copies a whole SQLite instance.',
  );
  return lines;
}
