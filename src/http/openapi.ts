// The shared parts of the OpenAPI 3.1 document: security schemes, the Problem schema and its responses, tags and the document's head.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { API_VERSION } from '../domain/api-version.js';
import { STORAGE_RETRY_AFTER_SEC } from '../domain/errors.js';
import { INGEST_RETRY_AFTER_SEC } from '../runner/ingest.js';
import { API_LIMITS } from '../services/api-limits.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';

export const OPENAPI_VERSION = '3.1.0';

/** Security scheme names, as routes name them in `security`. */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'wdn_…',
    description:
      'An organization API key, sent as `Authorization: Bearer wdn_…`. Read keys may use GET routes; write keys every route. Create keys with `warden keys create` or POST /api/v1/api-keys.',
  },
  relayToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'wdr_…',
    description:
      'A relay token, sent as `Authorization: Bearer wdr_…`. Issued when a relay is created (POST /api/v1/relays) or with `warden relays token`.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'warden_session',
    description:
      'A signed-in browser’s session cookie (`warden_session`, `__Host-warden_session` over https), set by POST /api/v1/auth/login. HttpOnly, SameSite=Lax; writes must come from Warden’s own origin (the Origin header), or they are refused with 403.',
  },
} as const;

/** `security` values for routes: an API key, a relay token, or nothing (public routes and push, whose token is in the path). */
export const security = {
  apiKey: [{ apiKey: [] }],
  relayToken: [{ relayToken: [] }],
  session: [{ session: [] }],
  none: [],
} satisfies Record<string, RouteConfig['security']>;

/** The push token path parameter (`/api/push/{token}`): the credential of a heartbeat monitor. */
export const pushTokenParam = z.string().openapi({
  param: {
    name: 'token',
    in: 'path',
    description:
      'The push token of a heartbeat monitor (wdp_…); it is the credential, no header is needed. Returned once when the monitor is created.',
  },
  example: 'wdp_3q2-7Yx1aBcDeFgHiJkLmNoPqRsTuVwX',
});

/** The 503 of the routes that store results (push, relay). */
export const OVERLOADED_DESCRIPTION = `Nothing was stored: too many results are waiting to be stored (\`overloaded\`, Retry-After: ${INGEST_RETRY_AFTER_SEC} s), or the database cannot store now, being full or unreachable (\`storage-unavailable\`, Retry-After: ${STORAGE_RETRY_AFTER_SEC} s). Retry after Retry-After seconds.`;

/** Tags group the document's operations; routes use these names. */
export const TAGS = {
  status: { name: 'Status', description: 'Public status pages and their forms (no authentication).' },
  push: { name: 'Push', description: 'Heartbeats sent by your servers; the push token in the path is the credential.' },
  relay: { name: 'Relay', description: 'The relay protocol (relay token).' },
  monitors: { name: 'Monitors', description: 'Monitors, their state and history (API key).' },
  pages: { name: 'Pages', description: 'Status pages (API key).' },
  components: { name: 'Components', description: 'What a page lists, each optionally following a monitor (API key).' },
  incidents: { name: 'Incidents', description: 'Incidents and their timelines (API key).' },
  maintenance: { name: 'Maintenance', description: 'Scheduled maintenance windows (API key).' },
  boards: {
    name: 'Boards',
    description: 'Discord messages kept up to date with a page: its state, servers, players and incidents (API key).',
  },
  relays: { name: 'Relays', description: 'Relay agents and their tokens (API key).' },
  apiKeys: { name: 'API keys', description: 'The organization’s API keys (write key).' },
  notifications: {
    name: 'Notifications',
    description: 'Notification channels, their tests and delivery logs (API key).',
  },
  organization: {
    name: 'Organization',
    description: 'The organization, its members and their invitations (API key or session; roles decide).',
  },
  reports: { name: 'Reports', description: 'Uptime and SLA of monitors, components and pages (API key).' },
  alerts: {
    name: 'Alerts',
    description:
      "Alerts (a monitor's open problem), their acknowledgement, and escalation policies (API key; docs/notifications.md).",
  },
  audit: { name: 'Audit log', description: 'Who (a user or an API key) did what to which object, when (admin).' },
  account: {
    name: 'Account',
    description:
      'Signing in (password, first-run setup, invitations, OpenID Connect), sessions and the signed-in user (session cookie).',
  },
} as const;

export const fieldIssueSchema = z
  .object({
    path: z
      .string()
      .openapi({ example: 'body.config.port' })
      .describe('Where the invalid value is: body.…, query.… or path.…'),
    message: z.string().openapi({ example: 'expected an integer from 1 to 65535' }),
  })
  .openapi('FieldIssue');

/** RFC 9457 problem details, the body of every error. */
export const problemSchema = z
  .object({
    type: z
      .string()
      .openapi({ example: 'https://warden.dev/problems/not-found' })
      .describe('A URI naming the kind of problem.'),
    title: z.string().openapi({ example: 'Not found' }),
    status: z.number().int().openapi({ example: 404 }),
    detail: z.string().optional().openapi({ example: 'page "lobby" was not found' }),
    instance: z.string().optional().describe('The request path.'),
    errors: z.array(fieldIssueSchema).optional().describe('Validation problems (400): one entry per invalid field.'),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details (application/problem+json).' });

export type ResponseConfig = Exclude<RouteConfig['responses'][string], { $ref: string }>;
type Ref = { $ref: string };
type HeadersObject = Record<string, { description: string; schema: { type: 'integer' | 'string' } } | Ref>;

const RATE_LIMIT_HEADER_DEFINITIONS = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this key.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: 'The policy, e.g. `600;w=60` (600 requests per 60 seconds).',
    schema: { type: 'string' },
  },
} satisfies HeadersObject;

/** The rate limit headers every API-key response carries (draft-ietf-httpapi-ratelimit-headers: the RateLimit-* triple and RateLimit-Policy). */
export const RATE_LIMIT_HEADERS: Record<keyof typeof RATE_LIMIT_HEADER_DEFINITIONS, Ref> = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

/** Every problem status, the name of its shared response in components.responses, and its general wording. */
const PROBLEMS = {
  400: {
    name: 'BadRequest',
    description:
      'Invalid request: `errors` names each invalid field (`body.name`, `query.hours`), or the body is not JSON.',
  },
  401: {
    name: 'Unauthorized',
    description: 'No credentials, or not valid ones.',
    headers: {
      'WWW-Authenticate': { description: 'The challenge: `Bearer realm="warden"`.', schema: { type: 'string' } },
    },
  },
  403: { name: 'Forbidden', description: 'The key lacks the scope this route needs (a read key on a write route).' },
  404: { name: 'NotFound', description: 'No such object (objects of other organizations are never revealed).' },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists but not with this method.',
    headers: { Allow: { description: 'The methods the path serves.', schema: { type: 'string' } } },
  },
  410: {
    name: 'Gone',
    description: 'The link (setup, password reset, invitation) was used, withdrawn or has expired.',
  },
  409: {
    name: 'Conflict',
    description:
      'Conflicts with the current state: a key already taken, a limit reached, or an object warden.yaml manages.',
  },
  413: { name: 'PayloadTooLarge', description: `The body is larger than ${API_LIMITS.bodyBytes} bytes.` },
  415: { name: 'UnsupportedMediaType', description: 'The body is not application/json.' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests for this key; retry after `Retry-After` seconds.',
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS },
  },
  500: { name: 'InternalError', description: 'Something went wrong on the server.' },
  503: { name: 'NotReady', description: 'The server is not ready (starting, stopping, or overloaded).' },
} satisfies Record<number, { name: string; description: string; headers?: HeadersObject }>;

export type ProblemStatus = keyof typeof PROBLEMS;

/** References to the shared problem responses, e.g. `...problemResponses(400, 401, 404)` in a route's `responses`. */
export function problemResponses<S extends ProblemStatus>(...statuses: S[]): { [K in S]: Ref } {
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${PROBLEMS[status].name}` }]),
  ) as {
    [K in S]: Ref;
  };
}

/** One problem+json response in the route's own words: `404: problemResponse(404, 'Unknown page')`. */
export function problemResponse(status: ProblemStatus, description?: string): ResponseConfig {
  const base: { description: string; headers?: HeadersObject } = PROBLEMS[status];
  return {
    description: description ?? base.description,
    ...(base.headers ? { headers: base.headers } : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
  };
}

/** A JSON response of this schema. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string, headers?: HeadersObject) {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

/** A required JSON request body of this schema. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, ...(description ? { description } : {}), content: { 'application/json': { schema } } };
}

/** Registers what routes refer to by name: security schemes, the Problem schema, the shared problem responses and headers. Called once by createApp. */
export function registerOpenApiComponents<E extends Env>(app: OpenAPIHono<E>): void {
  const registry = app.openAPIRegistry;
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES))
    registry.registerComponent('securitySchemes', name, scheme);
  registry.register('Problem', problemSchema);
  for (const [name, header] of Object.entries(RATE_LIMIT_HEADER_DEFINITIONS))
    registry.registerComponent('headers', name, header);
  for (const problem of Object.values(PROBLEMS) as { name: string; description: string; headers?: HeadersObject }[])
    registry.registerComponent('responses', problem.name, {
      description: problem.description,
      ...(problem.headers ? { headers: problem.headers } : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
    });
}

/** The head of /api/openapi.json. */
export function openApiDocumentConfig(baseUrl: string) {
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Warden API',
      version: API_VERSION,
      description: [
        'Status pages and monitoring for game servers and web services.',
        '',
        '- **Public status** (`/api/v1/status/{slug}`, `/s/{slug}/…`): no credentials.',
        '- **Organization API** (`/api/v1/…`): `Authorization: Bearer wdn_…` (API key; read or write scope).',
        '- **Relays** (`/api/relay/…`): `Authorization: Bearer wdr_…` (relay token).',
        '- **Push** (`/api/push/{token}`): the push token (wdp_…) in the path is the credential.',
        '',
        'Errors are RFC 9457 `application/problem+json`. Times are epoch milliseconds. The guide is docs/api.md; an interactive reference is served at /docs.',
      ].join('\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl === '' ? '/' : baseUrl }],
    tags: Object.values(TAGS),
  };
}
