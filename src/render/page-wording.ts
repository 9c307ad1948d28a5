// What every form of a page shares: user text cleaned for display, components by group, ISO times; and the English
// state words and counts of the forms for machines (MCP, the badge). The localised words are in i18n/wording.ts.
import type { PageState } from '../domain/snapshot.js';

/** A component's state in words: the page never relies on colour alone. */
export const STATE_WORD: Record<PageState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  maintenance: 'Under maintenance',
  unknown: 'No data',
};

/** An instant as ISO 8601 UTC to the second, the form machines and language models parse without doubt. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Thousands separated with commas, fixed so the bytes never depend on the server's locale. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * User text cleaned for display: control characters (which some game servers put in MOTDs) removed and, for
 * one-line places such as names and table cells, every run of whitespace made one space.
 */
export function plainText(text: string, options: { multiline?: boolean } = {}): string {
  // Minecraft formatting codes (§a, §l…) are colour instructions, not words.
  const cleaned = text.replace(/§[0-9a-fk-orx]/gi, '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  if (!options.multiline) return cleaned.replace(/\s+/g, ' ').trim();
  return cleaned
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Components in page order, bunched by group in the order groups first appear; ungrouped ones form a group named null. */
export function groupComponents<T extends { group: string | null }>(
  components: readonly T[],
): { group: string | null; components: T[] }[] {
  const groups = new Map<string | null, T[]>();
  for (const component of components) {
    const key = component.group === null || component.group.trim() === '' ? null : component.group;
    const list = groups.get(key);
    if (list) list.push(component);
    else groups.set(key, [component]);
  }
  return [...groups].map(([group, list]) => ({ group, components: list }));
}
