// Operations a screen is built against before the OpenAPI document describes them (another engineer is writing the
// route), in openapi-typescript's shape, e.g.
//   '/api/v1/things': Get<Operation<{ things: Thing[] }, 200, never, { limit?: number }>>;
// with a line in PENDING_OPERATIONS. An entry overrides the generated path; test/dashboard-api-schema.test.ts fails
// once the document describes it, so each is deleted (and `npm run gen:api` run) as soon as the real route exists.
import type { components } from './schema.js';

// biome-ignore lint/complexity/noBannedTypes: no operation is pending right now; entries go here.
export type PendingPaths = {};

/** What PendingPaths holds, as the test sees it: path, method, and the query parameters the screen needs. */
export const PENDING_OPERATIONS: readonly {
  path: keyof PendingPaths & string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  query?: readonly string[];
}[] = [];

type Json<T> = { content: { 'application/json': T } };
type Answer<T> = { headers: { [name: string]: unknown } } & Json<T>;
type Empty = { headers: { [name: string]: unknown }; content?: never };
type Failure = {
  headers: { [name: string]: unknown };
  content: { 'application/problem+json': components['schemas']['Problem'] };
};
type Params<Q, P> = { query?: Q; header?: never; path: P; cookie?: never };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };

/** One operation: its answer `Ok` with `Status`, its JSON body, query and path parameters (never: none). */
export type Operation<Ok, Status extends number = 200, Body = never, Q = never, P = never> = {
  parameters: [P] extends [never] ? Omit<Params<Q, P>, 'path'> & { path?: never } : Params<Q, P>;
  responses: { [S in Status]: [Ok] extends [never] ? Empty : Answer<Ok> } & { default: Failure };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> });
export type Get<Op> = { parameters: NoParams; get: Op };
export type Post<Op> = { parameters: NoParams; post: Op };
