// One public status path in the OpenAPI document: under /s/{slug} (or /api/v1/status/{slug}), tagged Status, with the
// page's slug as its path parameter. Only described here: the page middleware serves these paths.
import { type RouteConfig, z } from '@hono/zod-openapi';
import type { App } from '../../env.js';
import { TAGS } from '../../openapi.js';

/** The page's slug, the path parameter of every public status path. */
export const slugParam = z.string().openapi({ param: { name: 'slug', in: 'path' }, example: 'demo' });

/** A status path's entry: `params` are path parameters besides the slug; `x-…` keys are extensions. */
export interface StatusPath {
  method?: 'get' | 'post';
  path: string;
  summary: string;
  description?: string;
  params?: z.ZodRawShape;
  query?: z.ZodRawShape;
  body?: NonNullable<RouteConfig['request']>['body'];
  responses: RouteConfig['responses'];
  [extension: `x-${string}`]: unknown;
}

/** Registers one status path (GET unless said) in the OpenAPI document. */
export function registerStatusPath(
  app: App,
  { method = 'get', path, summary, description, params, query, body, responses, ...extensions }: StatusPath,
): void {
  app.openAPIRegistry.registerPath({
    method,
    path,
    tags: [TAGS.status.name],
    summary,
    ...(description === undefined ? {} : { description }),
    request: {
      params: z.object({ slug: slugParam, ...params }),
      ...(query ? { query: z.object(query) } : {}),
      ...(body ? { body } : {}),
    },
    responses,
    ...extensions,
  });
}
