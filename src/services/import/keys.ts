// What both importers need to name things in warden.yaml: keys made from names, unique within a list, and the names
// of the environment variables secrets are read from.

const KEY_CHARS = 64;

/** A stable key (`[a-z0-9][a-z0-9_-]{0,63}`) from a name: "API (EU) #2" → "api-eu-2"; `fallback` when nothing is left. */
export function keyFromName(name: string, fallback: string, max = KEY_CHARS): string {
  const key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return key === '' ? fallback : key;
}

/**
 * Hands out keys unique among those it gave: the first free candidate, else the last one with -2, -3… (each within 64
 * characters; stable for the same input).
 */
export function keyAllocator(): (candidates: string | readonly string[]) => string {
  const taken = new Set<string>();
  return (candidates) => {
    const list = typeof candidates === 'string' ? [candidates] : candidates;
    let key = list.find((candidate) => !taken.has(candidate));
    const base = list[list.length - 1] ?? 'item';
    for (let n = 2; key === undefined; n++) {
      const suffix = `-${n}`;
      const attempt = `${base.slice(0, KEY_CHARS - suffix.length).replace(/-+$/, '')}${suffix}`;
      if (!taken.has(attempt)) key = attempt;
    }
    taken.add(key);
    return key;
  };
}

/** The name of the environment variable a secret is read from: the source's prefix (KUMA, GATUS) and the words, upper-case. */
export function envName(prefix: string, ...words: string[]): string {
  return [prefix, ...words]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
