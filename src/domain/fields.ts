// Field schemas shared by every writer (warden.yaml, the API, the CLI): keys, texts, times and bounded integers.
import { z } from 'zod';

export const KEY_MESSAGE = 'expected 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit';
export const stableKey = () =>
  z.string({ error: KEY_MESSAGE }).regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: KEY_MESSAGE });

/** A trimmed, non-empty string of at most `max` characters. */
export const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** A point in time: ISO 8601 with an offset, or epoch milliseconds; always epoch milliseconds once parsed. */
export const timestamp = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true })], {
    error: 'expected an ISO 8601 date-time such as 2026-01-31T22:00:00Z, or epoch milliseconds',
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));

/** An integer in [min, max], with one message naming the range (and the unit, e.g. " seconds"). */
export const intIn = (min: number, max: number, unit = '') => {
  const message = `expected an integer from ${min} to ${max}${unit}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

/** The same, from a query string ("24"). */
export const queryIntIn = (min: number, max: number) => {
  const message = `expected an integer from ${min} to ${max}`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
};

/** The id or key naming an existing object (from a path, a flag): an unknown or odd one is "not found", never "invalid". */
export const reference = () => z.string().min(1).max(200);
