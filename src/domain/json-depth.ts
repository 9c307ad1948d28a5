// How deeply JSON nests, measured without recursion: a body nested past JSON_MAX_DEPTH is refused before anything
// recursive (JSON.stringify, a validator, the database driver) walks it and overflows the stack.

/** Arrays and objects inside one another in a request body (or one relay result), at most. */
export const JSON_MAX_DEPTH = 400;

/** What a refusal says, wherever it is answered. */
export function tooDeepMessage(max = JSON_MAX_DEPTH): string {
  return `nested deeper than ${max} levels of arrays and objects`;
}

/**
 * Whether a JSON text nests arrays and objects deeper than `max`: a scan of its characters, strings (and their
 * escapes) skipped, no parse. Meant for text about to be parsed; on text that is not JSON the answer is meaningless
 * and the parse refuses it anyway.
 */
export function textNestsDeeper(text: string, max = JSON_MAX_DEPTH): boolean {
  // Deeper than max needs more than max opening brackets.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Whether a value nests arrays and objects deeper than `max` (a scalar is 0 deep, `{}` and `[]` are 1). */
export function valueNestsDeeper(value: unknown, max = JSON_MAX_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > max) return true;
    for (const child of Object.values(top.node))
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: top.depth + 1 });
  }
  return false;
}
