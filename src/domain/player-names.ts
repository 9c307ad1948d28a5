// Who is online: the names a game server lists, cleaned and capped, kept only on a monitor's latest result.

/** What a list of names may hold, whatever the server sent. */
export const PLAYER_NAMES_LIMITS = {
  /** Names kept; a server with more lists its first ones. */
  names: 100,
  /** Characters (code points) of one name. */
  nameChars: 64,
  /** Characters (UTF-16 units, as JSON counts them) of all names together, so a result's data stays under its cap. */
  totalChars: 8000,
} as const;

/** The key of a result's data that holds the names. */
export const PLAYER_NAMES_KEY = 'playerNames';

// Control and format characters (bidi overrides, zero-width spaces…) would let one name rearrange or hide the others.
const UNWANTED = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\u2028\u2029]/gu;

/** One name as shown: without control or format characters, spaces collapsed, at most 64 characters. */
export function cleanPlayerName(name: string): string {
  const plain = name.replace(UNWANTED, '').replace(/\s+/gu, ' ').trim();
  const chars = [...plain];
  return chars.length > PLAYER_NAMES_LIMITS.nameChars ? chars.slice(0, PLAYER_NAMES_LIMITS.nameChars).join('') : plain;
}

/** The names a list gives: strings only, cleaned, empty ones dropped, at most 100 and 8,000 characters in all. */
export function cleanPlayerNames(values: readonly unknown[]): string[] {
  const names: string[] = [];
  let total = 0;
  for (const value of values) {
    if (names.length >= PLAYER_NAMES_LIMITS.names) break;
    if (typeof value !== 'string') continue;
    const name = cleanPlayerName(value);
    if (name === '') continue;
    total += name.length;
    if (total > PLAYER_NAMES_LIMITS.totalChars) break;
    names.push(name);
  }
  return names;
}

/** The names a result's data holds (cleaned again: data may come from a relay or a push), or null without a list. */
export function playerNamesOf(data: Record<string, unknown> | null | undefined): string[] | null {
  const list = data?.[PLAYER_NAMES_KEY];
  return Array.isArray(list) ? cleanPlayerNames(list) : null;
}

/** A result's data as history keeps it: without the names, which only the latest result holds. */
export function withoutPlayerNames(data: Record<string, unknown>): Record<string, unknown> {
  if (!(PLAYER_NAMES_KEY in data)) return data;
  const { [PLAYER_NAMES_KEY]: _names, ...rest } = data;
  return rest;
}
