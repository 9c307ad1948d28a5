// A Gatus configuration read as Gatus reads it: one file or several merged, each a YAML mapping with no alias inside
// the node it names and no deeper than Gatus's own files go.
import { parse } from 'yaml';
import { isObject } from './gatus-alerting.js';

/** Levels of nesting a Gatus file may have; its own go five or six deep. */
const GATUS_MAX_DEPTH = 32;

/**
 * Reads one Gatus file, or several (a GATUS_CONFIG_PATH directory) merged as Gatus merges them: maps deeply, lists
 * appended.
 */
export function parseGatusConfig(texts: readonly string[]): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const text of texts) {
    const value: unknown = parse(text, { maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    assertTree(value);
    if (!isObject(value)) throw new Error('a Gatus configuration is a YAML mapping (endpoints:, alerting:, …)');
    merged = mergeGatus(merged, value);
  }
  return merged;
}

/** A parsed document as a tree: an alias inside the node it names would make every walk of the file endless. */
function assertTree(value: unknown, ancestors = new Set<object>()): void {
  if (value === null || typeof value !== 'object') return;
  if (ancestors.has(value)) throw new Error('an alias refers to a mapping or list that holds it');
  if (ancestors.size === GATUS_MAX_DEPTH) throw new Error(`it nests deeper than ${GATUS_MAX_DEPTH} levels`);
  ancestors.add(value);
  for (const child of Object.values(value)) assertTree(child, ancestors);
  ancestors.delete(value);
}

/** Merges by own keys only: a key such as `__proto__` is a key like any other, never the merged object's prototype. */
function mergeGatus(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const merged = new Map(Object.entries(a));
  for (const [key, value] of Object.entries(b)) {
    const current = merged.get(key);
    if (Array.isArray(current) && Array.isArray(value)) merged.set(key, [...current, ...value]);
    else if (isObject(current) && isObject(value)) merged.set(key, mergeGatus(current, value));
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}
