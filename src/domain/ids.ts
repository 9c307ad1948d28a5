// Identifiers of stored objects: a short kind prefix and 80 random bits, readable in URLs and logs.
import { randomBytes } from 'node:crypto';

export type IdKind =
  | 'org'
  | 'key'
  | 'rly'
  | 'mon'
  | 'pg'
  | 'cmp'
  | 'inc'
  | 'upd'
  | 'mnt'
  | 'brd'
  | 'nch'
  | 'dlv'
  | 'sub'
  | 'usr'
  | 'ses'
  | 'inv'
  | 'aud'
  | 'stc'
  | 'rcp'
  | 'esc'
  | 'idr';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newId(kind: IdKind): string {
  const bytes = randomBytes(16);
  let out = `${kind}_`;
  for (const byte of bytes) out += ALPHABET[byte & 31];
  return out;
}
