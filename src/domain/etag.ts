// Entity tags: one strong validator for every body Warden serves from memory, and the If-None-Match comparison.
import { createHash } from 'node:crypto';

/** A strong ETag of these bytes (quoted): 22 base64url characters of their SHA-1, plenty to tell versions apart. */
export function etagOf(bytes: Uint8Array | string): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET and HEAD). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
