// Copying a stored object's fields into its API view: only the fields named, so nothing else (a hash, a token) leaks.

/** A new object holding exactly `keys` of `source`, in the order given. */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = source[key];
  return picked;
}
