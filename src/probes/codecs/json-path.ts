// A small JSON path ("$.a.b[0].c", "a.b[0].c", "$['odd.key']") to read one value out of a probed JSON body.

export type JsonPathSegment = string | number;

export type JsonPathLookup = { found: true; value: unknown } | { found: false };

/** Longest path accepted; paths come from monitor config. */
const MAX_SEGMENTS = 64;

/** Splits a path into keys and array indexes, or returns null when the path is malformed. */
export function parseJsonPath(path: string): JsonPathSegment[] | null {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const segments: JsonPathSegment[] = [];
  let first = true;
  while (rest.length > 0) {
    if (segments.length >= MAX_SEGMENTS) return null;
    if (rest.startsWith('[')) {
      const index = /^\[(\d{1,9})\]/.exec(rest);
      const quoted = /^\[(?:'([^']*)'|"([^"]*)")\]/.exec(rest);
      if (index) segments.push(Number(index[1]));
      else if (quoted) segments.push(quoted[1] ?? quoted[2] ?? '');
      else return null;
      rest = rest.slice((index ?? quoted)![0].length);
    } else {
      // A leading dot is optional only for the first key ("a.b" as well as "$.a.b").
      if (rest.startsWith('.')) rest = rest.slice(1);
      else if (!first) return null;
      const key = /^[^.[\]]+/.exec(rest);
      if (!key) return null;
      segments.push(key[0]);
      rest = rest.slice(key[0].length);
    }
    first = false;
  }
  return segments;
}

export function isValidJsonPath(path: string): boolean {
  return parseJsonPath(path) !== null;
}

/** Follows the path through own properties only, so "__proto__" or "constructor" never reach the prototype. */
export function readJsonPath(document: unknown, path: string | JsonPathSegment[]): JsonPathLookup {
  const segments = typeof path === 'string' ? parseJsonPath(path) : path;
  if (segments === null) return { found: false };
  let current: unknown = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= current.length) return { found: false };
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return { found: false };
      current = (current as Record<string, unknown>)[key];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** The text a JSON value is compared as: strings as they are, everything else as JSON ("42", "true", "null"). */
export function jsonValueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  return JSON.stringify(value);
}
