// A monitor's or channel's stored configuration without the fields that hold their type's default: what a person would
// have written. A field goes only when the type's schema, given what is left, gives back exactly the stored config.
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';

export function withoutDefaults(
  schema: z.ZodType,
  config: Record<string, unknown>,
  keep: readonly string[],
): Record<string, unknown> {
  let reduced = { ...config };
  for (const field of Object.keys(config)) {
    if (keep.includes(field)) continue;
    const { [field]: _dropped, ...without } = reduced;
    const parsed = schema.safeParse(without);
    if (parsed.success && isDeepStrictEqual(parsed.data, config)) reduced = without;
  }
  return reduced;
}
