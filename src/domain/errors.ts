// The typed errors of the core; each transport (HTTP problem+json, MCP, CLI) maps them once.

export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `monitors[2].config.port`. */
  path: string;
  message: string;
}

export abstract class WardenError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  /** Short slug for the RFC 9457 `type` URI. */
  abstract readonly code: string;
}

export class NotFoundError extends WardenError {
  readonly status = 404;
  readonly title = 'Not found';
  readonly code = 'not-found';
  constructor(
    readonly entity: string,
    readonly id: string,
  ) {
    super(`${entity} ${JSON.stringify(id)} was not found`);
  }
}

export class ValidationError extends WardenError {
  readonly status = 400;
  readonly title = 'Invalid request';
  readonly code = 'validation';
  constructor(
    readonly issues: FieldIssue[],
    detail = 'The request has invalid fields.',
  ) {
    super(detail);
  }
}

/** The base of an error whose status, title and code never change: its one argument is the detail. */
export function fixedAnswerError<const S extends number, const C extends string>(status: S, title: string, code: C) {
  return class extends WardenError {
    readonly status = status;
    readonly title = title;
    readonly code = code;
  };
}

export class ConflictError extends fixedAnswerError(409, 'Conflict', 'conflict') {}

export class ForbiddenError extends fixedAnswerError(403, 'Forbidden', 'forbidden') {}

/** An error the caller may retry after `retryAfterSec` (answered with Retry-After). */
export abstract class RetryLaterError extends WardenError {
  constructor(
    detail: string,
    readonly retryAfterSec: number,
  ) {
    super(detail);
  }
}

/** Too much work is waiting (the ingest queue is full): the caller should retry after `retryAfterSec`. */
export class OverloadedError extends RetryLaterError {
  readonly status = 503;
  readonly title = 'Overloaded';
  readonly code = 'overloaded';
  constructor(detail: string, retryAfterSec = 1) {
    super(detail, retryAfterSec);
  }
}

/** A limit on how often something may be done is reached: answered 429 with Retry-After. */
export class RateLimitedError extends RetryLaterError {
  readonly status = 429;
  readonly title = 'Too many requests';
  readonly code = 'rate-limited';
}

/** Too many wrong guesses (passwords, codes) from this client or for this account: refused for `retryAfterSec`. */
export class TooManyAttemptsError extends RetryLaterError {
  readonly status = 429;
  readonly title = 'Too many attempts';
  readonly code = 'too-many-attempts';
}

/**
 * Why the database cannot store now: it is `full` (SQLite's disk or size limit, PostgreSQL's disk), `unreachable`
 * (PostgreSQL down, restarting, cut off or out of connections; SQLite's file unreadable), or `busy` (SQLite's file
 * locked by another process past the busy timeout).
 */
export type StorageFault = 'full' | 'unreachable' | 'busy';

/** Seconds a client is asked to wait when the database cannot store (docs/operations.md, Faults). */
export const STORAGE_RETRY_AFTER_SEC = 5;

/**
 * The database failed the operation for a reason of its own that passes (a StorageFault): nothing of it was stored,
 * and the same request may succeed after `retryAfterSec`. The store throws it in place of the driver's error (kept as
 * `cause`, for the log only: it may name tables, hosts or values).
 */
export class StorageUnavailableError extends WardenError {
  readonly status = 503;
  readonly title = 'Storage unavailable';
  readonly code = 'storage-unavailable';
  readonly retryAfterSec = STORAGE_RETRY_AFTER_SEC;
  constructor(
    readonly fault: StorageFault,
    cause: unknown,
  ) {
    super(
      'The database is unavailable right now (full, locked or unreachable): nothing of this request was stored. Try again in a few seconds.',
      { cause },
    );
  }
}
