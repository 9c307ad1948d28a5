// The channels a monitor or a page names in its `notify`: checked against the organization's channels when written.
import { type FieldIssue, ValidationError } from '../../domain/errors.js';
import { organizationOf, type ServiceContext } from '../context.js';

/**
 * The keys as stored (duplicates dropped; none → null), each checked to name one of the organization's channels: an
 * unknown key is a 400 naming its place (`notify[0]`). Undefined (a patch that leaves it) stays undefined.
 */
export async function namedChannels(
  ctx: ServiceContext,
  keys: readonly string[] | null | undefined,
): Promise<string[] | null | undefined> {
  if (keys === undefined) return undefined;
  if (keys === null || keys.length === 0) return null;
  const known = new Set((await ctx.store.channels.list(organizationOf(ctx))).map((c) => c.key));
  const issues: FieldIssue[] = keys.flatMap((key, i) =>
    known.has(key) ? [] : [{ path: `notify[${i}]`, message: `no notification channel with key "${key}"` }],
  );
  if (issues.length > 0) throw new ValidationError(issues);
  return [...new Set(keys)];
}
