// What every organization API route shares: its guard (key, rate limit, scope, body cap), its documented errors and its path parameters.
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ValidationError } from '../../../domain/errors.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiKey } from '../../../store/api-keys.js';
import type { AppDeps, AppEnv } from '../../app.js';
import type { ApiKeyEnv } from '../../middleware/api-key-auth.js';
import { problemResponses } from '../../openapi.js';

export type ApiEnv = AppEnv & ApiKeyEnv;
export type ApiGuard = MiddlewareHandler<ApiEnv>;

/** The guards of read routes (any key) and write routes (write key, capped body). */
export interface ApiGuards {
  read: ApiGuard;
  write: ApiGuard;
}

/** Runs middleware in order as one, so a route's environment (c.get('apiKey')) stays typed. */
export function chain(...handlers: MiddlewareHandler<ApiEnv>[]): ApiGuard {
  return async (c, next) => {
    const run = async (i: number): Promise<void> => {
      const handler = handlers[i];
      if (!handler) return next();
      const answer = await handler(c, () => run(i + 1));
      // A middleware that answers itself (401, 413, 429) ends the chain; its answer becomes the response, as in Hono's compose.
      if (answer instanceof Response) c.res = answer;
    };
    await run(0);
  };
}

/** Errors every read route can answer (routes naming an object add their own 404). */
export const readProblems = problemResponses(400, 401, 429);
/** Errors every write route can answer (routes naming an object add their own 404). */
export const writeProblems = problemResponses(400, 401, 403, 409, 413, 415, 429);
/** Errors of routes that only read and take no path or query input (lists). */
export const listProblems = problemResponses(401, 429);

/** The service dependencies of a request. */
export function services(c: { var: { deps: AppDeps } }): ServiceDeps {
  const { store, bus, clock } = c.var.deps;
  return { db: store.db, bus, clock };
}

/** The caller's organization. */
export function organizationOf(c: { var: { apiKey: ApiKey } }): string {
  return c.var.apiKey.organizationId;
}

/** Service rules name fields of the body ("relay"); the API reports them as "body.relay", like schema errors. */
export async function inBody<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ValidationError(
        error.issues.map((i) => ({ ...i, path: `body.${i.path}` })),
        error.message,
      );
    throw error;
  }
}

const pathParam = (name: string, description: string, example: string) =>
  z.string().min(1).max(200).openapi({ param: { name, in: 'path', description }, example });

export const slugParam = pathParam('slug', 'The page slug.', 'lobby');
export const idParam = (what: string, example: string) => pathParam('id', `The ${what} id.`, example);
