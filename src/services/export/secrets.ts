// The secrets of an exported organization: where each sits in the document and the environment variable that stands
// for it (`MONITOR_RCON_PASSWORD`, `NOTIFY_OPS_SECRET`, `NOTIFY_OPS_HEADERS_AUTHORIZATION`), unique within the file.

export type SecretPath = readonly (string | number)[];

export interface ExportedSecret {
  /** Where in the document: `['notifications', 2, 'config', 'secret']`. */
  path: SecretPath;
  /** The environment variable its placeholder names. */
  variable: string;
  /** What it is, for the list of variables to set: `notification channel "ops": config.secret`. */
  what: string;
  /** The stored value; undefined when only a hash is stored (a page password), so the operator must choose it. */
  value: string | undefined;
}

/** Collects secrets as the document is built. */
export function secretList() {
  const secrets: ExportedSecret[] = [];
  const taken = new Set<string>();
  const name = (parts: readonly string[]): string => {
    const base = parts
      .join('_')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
    let variable = base;
    for (let n = 2; taken.has(variable); n++) variable = `${base}_${n}`;
    taken.add(variable);
    return variable;
  };
  const flag = (value: unknown, path: SecretPath, parts: readonly string[], what: string): void => {
    // A secret field may be a map (HTTP headers): each value is a secret of its own, the names stay readable.
    if (typeof value === 'string') {
      if (value !== '') secrets.push({ path, variable: name(parts), what, value });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        flag(item, [...path, i], [...parts, String(i)], `${what}[${i}]`);
      });
    } else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) flag(item, [...path, key], [...parts, key], `${what}.${key}`);
  };
  return {
    flag,
    /** A secret Warden holds only a hash of: the file names a variable, whose value the operator chooses. */
    unknown: (path: SecretPath, parts: readonly string[], what: string) =>
      void secrets.push({ path, variable: name(parts), what, value: undefined }),
    all: () => [...secrets],
  };
}
