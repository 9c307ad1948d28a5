// The answer of a database or broker check (a query's first value, a command's reply) and how it is compared with what
// the monitor expects: equal to a text, or matching a /regular expression/flags, run under a time limit.
import { runInNewContext } from 'node:vm';
import { z } from 'zod';
import type { ProbeResult } from './probe.js';

export const ANSWER_LIMITS = {
  /** Characters of an answer compared and shown; a longer answer is cut here first. */
  chars: 1024,
  /** Characters of the answer in a message. */
  messageChars: 120,
  /** Longest run of an `expected` regular expression, so a catastrophic pattern cannot stall the runner. */
  patternRunMs: 100,
  /** Bytes a check reads from a server over a plain connection before it gives up (a query's answer above all). */
  readBytes: 1024 * 1024,
} as const;

export interface AnswerMatcher {
  describe: string;
  test(answer: string): boolean | 'too-slow';
}

/** "/pattern/flags" is a regular expression; anything else must equal the answer, surrounding blanks aside. */
export function compileExpected(expected: string): AnswerMatcher | { error: string } {
  return compileMatcher(expected, {
    name: 'expected',
    runMs: ANSWER_LIMITS.patternRunMs,
    plain: { describe: `"${cut(expected, 100)}"`, test: (answer) => answer.trim() === expected.trim() },
    describePattern: `something matching ${cut(expected, 100)}`,
  });
}

/**
 * A "/pattern/flags" text as a regular expression, each run of it under `runMs` (a vm timeout interrupts a
 * backtracking one; a plain call could block the event loop for minutes); any other text as the `plain` matcher.
 * `name` is the field's, for errors: "invalid expected pattern: …".
 */
export function compileMatcher(
  text: string,
  options: { name: string; runMs: number; plain: AnswerMatcher; describePattern: string },
): AnswerMatcher | { error: string } {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(text);
  if (!regex) return options.plain;
  const [, pattern = '', flags = ''] = regex;
  if (!/^[imsu]*$/.test(flags))
    return { error: `invalid ${options.name} pattern: flags "${flags}" (use any of i, m, s, u)` };
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, flags);
  } catch (error) {
    return { error: `invalid ${options.name} pattern: ${error instanceof Error ? error.message : String(error)}` };
  }
  return {
    describe: options.describePattern,
    test: (subject) => {
      try {
        return (
          runInNewContext('pattern.test(subject)', { pattern: compiled, subject }, { timeout: options.runMs }) === true
        );
      } catch {
        return 'too-slow';
      }
    },
  };
}

/** The `expected` config field of the types that compare an answer. */
export function expectedField(what: string) {
  return z
    .string({ error: 'expected a text or a /regular expression/' })
    .min(1, { error: 'expected must not be empty' })
    .max(512, { error: 'expected at most 512 characters' })
    .refine((text) => !('error' in compileExpected(text)), { error: 'expected a valid /regular expression/flags' })
    .optional()
    .describe(`What ${what} must be: a text it must equal, or a /regular expression/ it must match.`);
}

/** A value of a query's answer as text: null as "null", bytes as hex, objects as JSON; at most ANSWER_LIMITS.chars. */
export function answerText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = 'null';
  else if (typeof value === 'string') text = value;
  else if (Buffer.isBuffer(value)) text = value.toString('hex');
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === 'object')
    text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  else text = String(value);
  return cut(text, ANSWER_LIMITS.chars);
}

export interface Answered {
  ok: boolean;
  latencyMs: number;
  /** What the check asked, for the message: "SELECT 1", "PING". */
  asked: string;
  answer: string;
  data?: Record<string, unknown>;
}

/** The verdict on an answer: up when it is what was expected (or nothing was), down with both shown otherwise. */
export function judgeAnswer(
  expected: string | undefined,
  { latencyMs, asked, answer, data }: Omit<Answered, 'ok'>,
): ProbeResult {
  const shown = answer === '' ? '(nothing)' : cut(answer, ANSWER_LIMITS.messageChars);
  const result = { ok: true, latencyMs, message: `${cut(asked, 60)} → ${shown}`, data: { ...data, answer } };
  if (expected === undefined) return result;
  const matcher = compileExpected(expected);
  if ('error' in matcher) return { ok: false, error: matcher.error, data: result.data };
  const matched = matcher.test(answer);
  if (matched === 'too-slow')
    return { ok: false, error: 'the expected pattern took too long to run on the answer', data: result.data };
  return matched
    ? result
    : {
        ok: false,
        error: `expected ${matcher.describe}, got ${answer === '' ? shown : `"${shown}"`}`,
        data: result.data,
      };
}

/** What a database check found: the server's version, and its query's first value and row count when it ran one. */
export interface QueryOutcome {
  serverVersion?: string;
  answer?: { value: unknown; rows: number };
}

/**
 * The verdict of a database check: logged in as `user` (naming the server, `product` and version, when it said), or,
 * with a query, its first value judged against `expected` (no rows answer nothing).
 */
export function queryVerdict(
  config: { user?: string; query?: string; expected?: string },
  { serverVersion, answer }: QueryOutcome,
  latencyMs: number,
  product: string,
): ProbeResult {
  const data: Record<string, unknown> = serverVersion ? { serverVersion } : {};
  if (!answer)
    return {
      ok: true,
      latencyMs,
      message: `logged in as ${config.user}${serverVersion ? `, ${product} ${serverVersion}` : ''}`,
      data,
    };
  const { value, rows } = answer;
  return judgeAnswer(config.expected, {
    latencyMs,
    asked: config.query as string,
    answer: rows === 0 ? '' : answerText(value),
    data: { ...data, rows },
  });
}

export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The first bytes of an answer in another protocol, for "not a … server" errors: text as text, its first line
 * ("HTTP/1.1 400 Bad Request…"), anything else in hex.
 */
export function firstBytes(buffer: Buffer): string {
  const head = buffer.subarray(0, 24);
  const text = head.toString('latin1');
  return /^[\x20-\x7e\r\n\t]+$/.test(text)
    ? JSON.stringify(text.split(/\r?\n/)[0] + (buffer.length > head.length ? '…' : ''))
    : `0x${head.toString('hex')}`;
}
