// The dashboard's one API client: openapi-fetch typed by the generated schema (and pending-paths.ts), sending the
// session cookie and the organization a request is for; problem+json answers become an ApiError naming the wrong fields.
import createClient from 'openapi-fetch';
import { chosenOrganization } from './chosen-organization';
import type { PendingPaths } from './pending-paths';
import type { components, paths } from './schema';

export type ApiPaths = Omit<paths, keyof PendingPaths> & PendingPaths;
export type FieldIssue = components['schemas']['FieldIssue'];

/** The cookie is the only credential: same-origin requests carry it, and nothing else is ever stored or sent. */
export const api = createClient<ApiPaths>({ credentials: 'same-origin' });

const ORGANIZATION_HEADER = 'x-warden-organization';

// A request that does not name its organization (a write of a screen) acts in the chosen one. Reads name theirs
// (inOrganization): the one their query key holds, so an answer is always cached under the organization it is of.
api.use({
  onRequest({ request }) {
    const organization = chosenOrganization();
    if (organization && !request.headers.has(ORGANIZATION_HEADER))
      request.headers.set(ORGANIZATION_HEADER, organization);
    return request;
  },
});

/** Request options naming the organization a request acts in ('' : none, the server then takes the user's first). */
export function inOrganization(organization: string): { headers: Record<string, string> } {
  return { headers: organization ? { [ORGANIZATION_HEADER]: organization } : {} };
}

/** An error answer of the API (RFC 9457), or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The problem type's last segment: `validation`, `second-factor-required`, `invalid-credentials`, … */
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** Each invalid field, by path (`body.email`, `query.limit`). */
  readonly issues: readonly FieldIssue[];

  constructor(status: number, problem: Partial<components['schemas']['Problem']> = {}) {
    super(problem.detail ?? problem.title ?? `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.code = problem.type?.split('/').pop() ?? (status === 0 ? 'network' : 'unknown');
    this.title = problem.title ?? (status === 0 ? 'Warden cannot be reached' : 'Request failed');
    this.detail = problem.detail;
    this.issues = problem.errors ?? [];
  }
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call: its data when it succeeded, an ApiError otherwise (so TanStack Query sees a failure). */
export async function call<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (cause) {
    throw new ApiError(0, { detail: cause instanceof Error ? cause.message : 'The network request failed.' });
  }
  if (result.response.ok) return result.data as T;
  const problem =
    typeof result.error === 'object' && result.error !== null
      ? (result.error as components['schemas']['Problem'])
      : undefined;
  throw new ApiError(result.response.status, problem);
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
