// A count with its noun in the right number ("1 relay", "2 relays"): for messages that name how many of something.

/** `plural`: for nouns that do not just take an s ("1 notification channel" reads the s off the last word). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
