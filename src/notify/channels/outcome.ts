// What one attempt to deliver came to, in the few classes the test answer and the delivery log show: refused by the
// organization's target policy, connection refused, timed out, host not found, connection failed, an error status from
// the receiver, or not sent at all. Pure: the HTTP and SMTP senders hand their facts here, the views read classes back.
import { TARGET_REFUSED } from '../../net/target-guard.js';
import type { SendOutcome } from './channel.js';

/** Characters of a receiver's answer kept in the delivery log. */
export const ANSWER_CHARS = 2000;

/** The classes of a failed attempt, as the delivery log's `lastFailure` names them. */
export const DELIVERY_FAILURES = [
  'refused',
  'connection-refused',
  'timed-out',
  'host-not-found',
  'connection-failed',
  'status',
  'not-sent',
] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

/** How each class's error text starts ('status' and 'not-sent' have their own words: `HTTP 404`, `the channel is disabled`). */
const WORDS = {
  refused: 'refused by policy',
  'connection-refused': 'connection refused',
  'timed-out': 'timed out',
  'host-not-found': 'host not found',
  'connection-failed': 'connection failed',
} as const satisfies Partial<Record<DeliveryFailure, string>>;

const TIMED_OUT_CODES = new Set(['ABORT_ERR', 'ETIMEDOUT', 'EABORT', 'UPGRADE_TIMEOUT']);
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_AGAIN', 'EAI_FAIL', 'EDNS']);

/**
 * An attempt that got no reply: the guard refused the address (dead: it will be refused again), or the connection
 * failed (retry). `code` is the error's (ECONNREFUSED, ABORT_ERR, ERR_PROBE_TARGET_REFUSED, …); `detail` the sender's
 * plain-language description, kept only where it says more than the class (a refusal's address, a TLS problem).
 */
export function unreached(code: string | undefined, detail: string): SendOutcome {
  if (code === TARGET_REFUSED) return { kind: 'dead', status: null, error: refusedText(detail) };
  if (code === 'ECONNREFUSED') return { kind: 'retry', status: null, error: WORDS['connection-refused'] };
  if (code !== undefined && TIMED_OUT_CODES.has(code))
    return { kind: 'retry', status: null, error: WORDS['timed-out'] };
  if (code !== undefined && NOT_FOUND_CODES.has(code))
    return { kind: 'retry', status: null, error: WORDS['host-not-found'] };
  return { kind: 'retry', status: null, error: `${WORDS['connection-failed']}${detail ? `: ${detail}` : ''}` };
}

/** The refusal as the log says it: what the address is, and the policy that refuses it (the guard's words name probes). */
function refusedText(detail: string): string {
  const what = /^refused: (.+?);/.exec(detail)?.[1];
  const because =
    'this organization may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)';
  return `${WORDS.refused}: ${what ? `${what}; ` : ''}${because}`;
}

/** A reply from an HTTP receiver that passed the guard. */
export interface HttpReply {
  status: number;
  retryAfter: string | null;
  body: string;
}

/** 2xx sent; 429 retry after its Retry-After; 408, 425 and 5xx retry; anything else (3xx: no redirect is followed, 4xx) dead. */
export function httpOutcome(reply: HttpReply, now: number): SendOutcome {
  const { status } = reply;
  const answer = clipAnswer(reply.body);
  if (status >= 200 && status < 300) return { kind: 'sent', status, answer };
  if (status === 429) {
    const afterMs = retryAfterMs(reply.retryAfter, now);
    return {
      kind: 'retry',
      status,
      error: 'rate limited by the receiver',
      answer,
      ...(afterMs !== undefined ? { afterMs } : {}),
    };
  }
  if (status === 408 || status === 425 || status >= 500)
    return { kind: 'retry', status, error: `HTTP ${status}`, answer };
  return { kind: 'dead', status, error: `HTTP ${status}`, answer };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function clipAnswer(text: string): string {
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
}

/** The dispatcher's words for a delivery it gave up on: the last attempt's error follows them. */
const GAVE_UP = /^gave up after \d+ attempts?: /;

/**
 * The class of a logged attempt, from what the log keeps: null when it was sent, skipped or not tried yet. A reply
 * with a status is `status`; otherwise the error's first words say which class it is, and anything else (a disabled
 * channel, a bad config, no SMTP server, a stop) was `not-sent`.
 */
export function failureOf(entry: {
  status: string;
  lastError: string | null;
  lastStatus: number | null;
}): DeliveryFailure | null {
  if (entry.status === 'sent' || entry.status === 'skipped' || entry.lastError === null) return null;
  if (entry.lastStatus !== null) return 'status';
  const error = entry.lastError.replace(GAVE_UP, '');
  for (const [failure, words] of Object.entries(WORDS))
    if (error === words || error.startsWith(`${words}:`)) return failure as DeliveryFailure;
  return 'not-sent';
}
