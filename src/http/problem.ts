// RFC 9457 problem details: the one shape of every HTTP error Warden answers.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import {
  type FieldIssue,
  OverloadedError,
  RateLimitedError,
  StorageUnavailableError,
  TooManyAttemptsError,
  ValidationError,
  WardenError,
} from '../domain/errors.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const TYPE_BASE = 'https://warden.dev/problems/';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldIssue[];
}

export function problem(status: number, code: string, title: string, detail?: string, errors?: FieldIssue[]): Problem {
  return {
    type: `${TYPE_BASE}${code}`,
    title,
    status,
    ...(detail !== undefined ? { detail } : {}),
    ...(errors !== undefined ? { errors } : {}),
  };
}

/** The answer to an error, the same from the app and from the pre-router; `unexpected` ones (500) are for the log. */
export interface ProblemAnswer {
  problem: Problem;
  headers: Record<string, string>;
  unexpected: boolean;
}

export function problemOf(error: unknown): ProblemAnswer {
  if (error instanceof HTTPException)
    return { problem: problemFromHttpException(error), headers: {}, unexpected: false };
  if (error instanceof ValidationError)
    return {
      problem: problem(error.status, error.code, error.title, error.message, error.issues),
      headers: {},
      unexpected: false,
    };
  if (error instanceof WardenError)
    return {
      problem: problem(error.status, error.code, error.title, error.message),
      headers: retryAfterOf(error),
      unexpected: false,
    };
  if (clientClosed(error)) {
    // The client hung up while we read its body: nobody hears the answer, and it is not our fault (no error log).
    return {
      problem: problem(
        400,
        'client-closed',
        'Request incomplete',
        'The connection closed before the whole body arrived.',
      ),
      headers: { connection: 'close' },
      unexpected: false,
    };
  }
  return {
    problem: problem(500, 'internal', 'Internal error', 'Something went wrong on our side.'),
    headers: {},
    unexpected: true,
  };
}

/** Errors that pass tell the client when to try again. */
function retryAfterOf(error: WardenError): Record<string, string> {
  return error instanceof OverloadedError ||
    error instanceof TooManyAttemptsError ||
    error instanceof StorageUnavailableError ||
    error instanceof RateLimitedError
    ? { 'retry-after': String(error.retryAfterSec) }
    : {};
}

/** Node's request stream failing because its client went away mid-body ("aborted", ECONNRESET). */
function clientClosed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

/** The bytes of a problem answer for a request path. */
export function problemBody(body: Problem, path: string): string {
  return JSON.stringify({ ...body, instance: path });
}

export function problemResponse(c: Context, body: Problem, headers: Record<string, string> = {}): Response {
  return new Response(problemBody(body, c.req.path), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...closingHeaders(body.status), ...headers },
  });
}

/**
 * A 413 leaves the rest of the body unread on the connection, so the connection cannot carry another request: say so
 * (`Connection: close`), or a keep-alive client sends its next request into a socket about to close.
 */
export function closingHeaders(status: number): Record<string, string> {
  return status === 413 ? { connection: 'close' } : {};
}

/** What the framework itself refuses (unreadable JSON, wrong content type, too large a body) in the same shape as every error. */
export function problemFromHttpException(error: HTTPException): Problem {
  switch (error.status) {
    case 400:
      return problem(400, 'malformed', 'Malformed request', 'The body is not valid JSON.');
    case 413:
      return problem(413, 'body-too-large', 'Body too large', 'The body is larger than this route accepts.');
    case 415:
      return problem(415, 'unsupported-media-type', 'Unsupported media type', 'Send the body as application/json.');
    default:
      return problem(error.status, 'http', error.message || 'Error', error.message || undefined);
  }
}

/** A verb names the fields of its input ("players"); the HTTP answer names where they were sent ("body.players"). */
export async function sentIn<T>(where: 'body' | 'query' | undefined, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ValidationError && where)
      throw new ValidationError(
        error.issues.map((i) => ({ ...i, path: i.path === '(root)' ? where : `${where}.${i.path}` })),
        error.message,
      );
    throw error;
  }
}
