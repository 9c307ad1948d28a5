// The shape of JSON learnt from samples, and where another document departs from it: the same keys in every object, and
// at every place a type the samples show there. For answering like another service does (test/fixtures/statuspage/).

/** A value's kind; strings that are ISO 8601 times with an offset, or calendar dates, are kinds of their own. */
export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'datetime' | 'date' | 'array' | 'object';

/** At each place (`$.components[].group_id`), the kinds seen there, and for objects the key sets seen there. */
export interface JsonShape {
  kinds: Map<string, Set<JsonKind>>;
  keySets: Map<string, Set<string>>;
}

/** With milliseconds or not, and "Z" or "+hh:mm": what Statuspage writes ("2025-03-14T10:02:11.512+01:00"). */
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return DATETIME.test(value) ? 'datetime' : DATE.test(value) ? 'date' : 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'object') return 'object';
  throw new Error(`not JSON: ${typeof value}`);
}

/** The shape of all the samples together: a place may hold any kind one of them has there. */
export function learnShape(...samples: unknown[]): JsonShape {
  const shape: JsonShape = { kinds: new Map(), keySets: new Map() };
  const visit = (value: unknown, path: string) => {
    const kind = kindOf(value);
    add(shape.kinds, path, kind);
    if (kind === 'array') for (const item of value as unknown[]) visit(item, `${path}[]`);
    if (kind === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      add(shape.keySets, path, keySet(entries.map(([key]) => key)));
      for (const [key, inner] of entries) visit(inner, `${path}.${key}`);
    }
  };
  for (const sample of samples) visit(sample, '$');
  return shape;
}

/** Every departure of `value` from the shape, one line each; empty when it has the shape. */
export function shapeDifferences(shape: JsonShape, value: unknown): string[] {
  const out: string[] = [];
  const visit = (inner: unknown, path: string) => {
    const kind = kindOf(inner);
    const allowed = shape.kinds.get(path);
    if (!allowed) {
      out.push(`${path}: the samples have nothing here`);
      return;
    }
    if (!allowed.has(kind)) {
      out.push(`${path}: ${kind} where the samples have ${[...allowed].join(' or ')}`);
      return;
    }
    if (kind === 'array') for (const item of inner as unknown[]) visit(item, `${path}[]`);
    if (kind === 'object') {
      const keys = Object.keys(inner as Record<string, unknown>);
      const sets = shape.keySets.get(path) ?? new Set<string>();
      if (!sets.has(keySet(keys))) {
        const known = [...sets].map((set) => set.split('\u0000'));
        const nearest = known.sort((a, b) => distance(a, keys) - distance(b, keys))[0] ?? [];
        const missing = nearest.filter((key) => !keys.includes(key));
        const extra = keys.filter((key) => !nearest.includes(key));
        out.push(
          `${path}: keys differ from the samples' (missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'})`,
        );
      }
      for (const key of keys) visit((inner as Record<string, unknown>)[key], `${path}.${key}`);
    }
  };
  visit(value, '$');
  // One line per place and kind of departure is enough to read (a list of 50 components departs 50 times alike).
  return [...new Set(out)];
}

/** The places of a document that hold a value, to check that a test reaches the parts it means to. */
export function placesOf(value: unknown): Set<string> {
  return new Set(learnShape(value).kinds.keys());
}

function add<T>(map: Map<string, Set<T>>, key: string, value: T): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function keySet(keys: string[]): string {
  return [...keys].sort().join('\u0000');
}

function distance(known: string[], keys: string[]): number {
  return known.filter((key) => !keys.includes(key)).length + keys.filter((key) => !known.includes(key)).length;
}
