// What a receiver's JSON answer says beyond its status: the reason a refused message gave (Pushover's `errors`,
// Gotify's `errorDescription`, Matrix's `errcode` and `error`) and how long a 429's body asks to wait.
import { clip } from '../events/format.js';
import type { SendOutcome } from './channel.js';

/** Longest reason added to a dead attempt's error. */
const REASON_CHARS = 300;

/** The answer as a JSON object, or undefined. */
export function answerJson(answer: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(answer ?? '');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A dead attempt's error followed by the receiver's reason, when its answer gives one: "HTTP 400: user key is invalid". */
export function withReason(
  outcome: SendOutcome,
  reason: (answer: Record<string, unknown>) => string | undefined,
): SendOutcome {
  if (outcome.kind !== 'dead' || outcome.status === null) return outcome;
  const json = answerJson(outcome.answer);
  const words = json ? reason(json)?.trim() : undefined;
  return words ? { ...outcome, error: `${outcome.error}: ${clip(words.replace(/\s+/g, ' '), REASON_CHARS)}` } : outcome;
}

/** A 429 whose body says how long to wait (milliseconds): the later of that and its Retry-After. */
export function withBodyRetryAfter(
  outcome: SendOutcome,
  afterMs: (answer: Record<string, unknown>) => unknown,
): SendOutcome {
  if (outcome.kind !== 'retry' || outcome.status !== 429) return outcome;
  const json = answerJson(outcome.answer);
  const wait = json ? afterMs(json) : undefined;
  if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0) return outcome;
  return { ...outcome, afterMs: Math.max(outcome.afterMs ?? 0, wait) };
}
