// RESP2, the Redis serialization protocol: commands as arrays of bulk strings, and replies (simple strings, errors,
// integers, bulk strings, arrays) read from a buffer that may hold only part of one.

/** An error reply ("-ERR …", "-WRONGPASS …"): a value, not a thrown exception. */
export class RespError {
  constructor(readonly message: string) {}
}

export type RespValue = string | number | null | RespError | RespValue[];

/** Deepest nesting of arrays accepted, and most elements in one: a reply is an answer to compare, not a data set. */
const MAX_DEPTH = 8;
const MAX_ELEMENTS = 10_000;

export function encodeCommand(words: string[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${words.length}\r\n`)];
  for (const word of words) {
    const bytes = Buffer.from(word, 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/**
 * Splits a command line as redis-cli does in its simplest form: words apart by blanks, a "double-quoted" word may hold
 * blanks and \" or \\. Null for an empty line or an unclosed quote.
 */
export function splitCommand(line: string): string[] | null {
  const words: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))(?=\s|$)/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  for (;;) {
    pattern.lastIndex = at;
    match = pattern.exec(line);
    if (!match) break;
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] as string));
    at = pattern.lastIndex;
  }
  if (line.slice(at).trim() !== '' || words.length === 0) return null;
  return words;
}

/**
 * Reads one reply at `offset`: its value and where it ends, or undefined when the buffer does not hold all of it yet.
 * Throws on bytes that are not RESP.
 */
export function readResp(buffer: Buffer, offset = 0, depth = 0): { value: RespValue; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd === -1) {
    if (buffer.length - offset > 64 * 1024) throw new Error('a reply line without an end');
    return undefined;
  }
  const type = String.fromCharCode(buffer[offset] as number);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new RespError(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const length = integer(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case '*': {
      const count = integer(line);
      if (count < 0) return { value: null, end: next };
      if (count > MAX_ELEMENTS || depth >= MAX_DEPTH) throw new Error('a reply too large to compare');
      const items: RespValue[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = readResp(buffer, at, depth + 1);
        if (item === undefined) return undefined;
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    default:
      throw new Error(`unexpected reply type ${JSON.stringify(type)}`);
  }
}

function integer(text: string): number {
  if (!/^-?\d{1,10}$/.test(text)) throw new Error(`bad length ${JSON.stringify(text.slice(0, 20))}`);
  return Number(text);
}
