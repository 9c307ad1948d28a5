// The message for an unknown field of a strict object when it is a name the API's answers use for a field that a body
// writes under another (`relayId` in a monitor's answer, `relay` in its body): say which was meant.
import type { z } from 'zod';

/** A zod error function for a strict object: `unknown field relayId; did you mean relay?`; other issues keep their message. */
export function unknownFieldError(
  aliases: Readonly<Record<string, string>>,
): (issue: z.core.$ZodRawIssue) => string | undefined {
  return (issue) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const meant = [
      ...new Set(issue.keys.flatMap((key) => (Object.hasOwn(aliases, key) ? [aliases[key] as string] : []))),
    ];
    if (meant.length === 0) return undefined;
    const fields =
      issue.keys.length === 1 ? `unknown field ${issue.keys[0]}` : `unknown fields ${issue.keys.join(', ')}`;
    return `${fields}; did you mean ${meant.join(' or ')}?`;
  };
}
