// Config fields shared by the notification channels, with the messages users see when they are wrong.
import { z } from 'zod';

export function secretText(what: string) {
  return z
    .string({ error: `expected the ${what} as a string` })
    .min(1, { error: `the ${what} must not be empty` })
    .max(4096, { error: `the ${what} is longer than 4096 characters` });
}

/** An http(s) address; channels point at the real service by default, and at a local fake in tests. */
export function endpointUrl(what = 'URL') {
  return z
    .url({ protocol: /^https?$/, error: `expected the ${what} as an http:// or https:// URL` })
    .max(2048, { error: `expected the ${what} in at most 2048 characters` });
}
