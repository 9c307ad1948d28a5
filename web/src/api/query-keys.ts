// The roots of every TanStack Query key. An organization's answers sit under ['org', <its key>], so switching
// organization changes every key a screen reads and nothing cached of another organization can show; what is the
// user's own (the session, the account) sits under ['auth'], and what is the same for the whole server under ['server'].
// Each resource module (web/src/api/<resource>.ts) builds its keys from these; screens never write one.
import type { QueryKey } from '@tanstack/react-query';

/** Everything cached of one organization. */
export const organizationScope = (organization: string) => ['org', organization] as const;

/** The signed-in user's own: who they are, their sessions, the sign-in options. Not per organization. */
export const ACCOUNT_SCOPE = ['auth'] as const;

/** The same answer whichever organization asks (the monitor and channel types): fetched once. */
export const SERVER_SCOPE = ['server'] as const;

/** Whether `key` begins with `prefix` (element by element, as TanStack Query's own prefix matching). */
export function hasPrefix(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.length <= key.length && prefix.every((part, i) => part === key[i]);
}
