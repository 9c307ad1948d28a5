// Reads a Dockerfile into its stages and instructions, for the test of its shape and for test/image-recipe.ts, which
// replays the final stage on the host. Covers what deploy/Dockerfile uses: line continuations, comments, ARG and ${…}
// substitution, key=value lists, flags (--from, --mount, --interval) and the JSON (exec) form.
import { readFileSync } from 'node:fs';

export interface Instruction {
  /** FROM, RUN, COPY, … in upper case. */
  keyword: string;
  /** `--name=value` flags before the arguments (COPY --from, RUN --mount, HEALTHCHECK --interval). */
  flags: Record<string, string>;
  /** The arguments as written after the flags, ARGs substituted. */
  text: string;
  /** The exec form's array (`CMD ["node", …]`), when the arguments are one. */
  exec?: string[];
  /** Line of the Dockerfile where it starts, for messages. */
  line: number;
}

export interface Stage {
  /** `FROM image AS name`: the name, or the stage's index as a string. */
  name: string;
  image: string;
  instructions: Instruction[];
}

export function readDockerfile(path: string): Stage[] {
  return parseDockerfile(readFileSync(path, 'utf8'));
}

export function parseDockerfile(source: string): Stage[] {
  const stages: Stage[] = [];
  /** ARGs before the first FROM (usable in FROM lines), then each stage's own. */
  const globalArgs = new Map<string, string>();
  let args = globalArgs;
  for (const { text: raw, line } of logicalLines(source)) {
    const match = /^([A-Za-z]+)\s*(.*)$/s.exec(raw);
    if (!match) throw new Error(`Dockerfile line ${line}: cannot read "${raw}"`);
    const keyword = (match[1] as string).toUpperCase();
    let rest = match[2] as string;
    const flags: Record<string, string> = {};
    for (let flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest); flag; flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)) {
      flags[flag[1] as string] = flag[2] ?? '';
      rest = rest.slice(flag[0].length);
    }
    // HEALTHCHECK's own command follows its flags: `CMD …` or `NONE`.
    const text = keyword === 'RUN' ? rest : substitute(rest, args);
    const instruction: Instruction = { keyword, flags, text, line };
    const execText = keyword === 'HEALTHCHECK' ? text.replace(/^CMD\s+/, '') : text;
    if (/^\[.*\]$/s.test(execText.trim())) instruction.exec = JSON.parse(execText) as string[];
    if (keyword === 'ARG') {
      const [name, value = ''] = text.split('=', 2) as [string, string?];
      args.set(name.trim(), unquote(value.trim()));
      continue;
    }
    if (keyword === 'FROM') {
      const [image, as, name] = text.split(/\s+/);
      if (!image) throw new Error(`Dockerfile line ${line}: FROM without an image`);
      stages.push({ name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length), image, instructions: [] });
      args = new Map(globalArgs);
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${line}: ${keyword} before FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}

/** `KEY=value KEY2="two words"` (ENV, LABEL), or the legacy `KEY value` of ENV. */
export function keyValues(text: string): Record<string, string> {
  const words = shellWords(text);
  if (words.length > 0 && !(words[0] as string).includes('='))
    return { [words[0] as string]: words.slice(1).join(' ') };
  return Object.fromEntries(
    words.map((word) => {
      const at = word.indexOf('=');
      if (at < 0) throw new Error(`expected KEY=value, got "${word}"`);
      return [word.slice(0, at), word.slice(at + 1)];
    }),
  );
}

/** Splits on unquoted blanks; double and single quotes group, a backslash escapes the next character (outside single quotes). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i] as string;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + (text[++i] as string);
    else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new Error(`unterminated ${quote} in: ${text}`);
  if (word !== null) words.push(word);
  return words;
}

/** Physical lines joined at a trailing backslash, comment lines dropped (also inside a continuation, as Docker does). */
function logicalLines(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | null = null;
  source.split(/\r?\n/).forEach((physical, index) => {
    const trimmed = physical.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && current === null)) return;
    const continued = /\\\s*$/.test(physical);
    const part = continued ? physical.replace(/\\\s*$/, '') : physical;
    if (current) current.text += ` ${part.trim()}`;
    else current = { text: part.trim(), line: index + 1 };
    if (!continued) {
      out.push(current);
      current = null;
    }
  });
  if (current) out.push(current);
  return out;
}

function substitute(text: string, args: Map<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => args.get(name) ?? whole);
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
