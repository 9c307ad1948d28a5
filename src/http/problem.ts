// RFC 9457 problem details: the one shape of every HTTP error Warden answers.
import type { Context } from 'hono';
import type { HTTPException } from 'hono/http-exception';
import type { FieldIssue } from '../domain/errors.js';

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

export function problemResponse(c: Context, body: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ ...body, instance: c.req.path }), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
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
