// The three kinds of object that live on a page — components, incidents, maintenance windows — share one set of routes:
// list and create under /api/v1/pages/{slug}/{collection}, read, change and delete under …/{collection}/{id}.
import { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../../services/context.js';
import type { App } from '../../env.js';
import type { TAGS } from '../../openapi.js';
import { type ApiGuards, apiOperation, idParam, slugParam } from './operation.js';

type Words = { summary: string; description?: string; ok: string };

export interface PageChildResource<V> {
  tag: keyof typeof TAGS;
  /** The path segment and the key of the list in its answer. */
  collection: string;
  /** The id parameter: what it names and an example. */
  id: { what: string; example: string };
  view: z.ZodType<V>;
  create: z.ZodType;
  patch: z.ZodType;
  /** A list's query parameters, when it takes any. */
  listQuery?: z.ZodObject;
  notFound: string;
  /** Its audit entries: `<type>.create`, `.update`, `.delete`, naming it by this label (key or title). */
  audit: { type: string; label(view: V): string | null };
  words: { list: Words; create: Words; get: Words; update: Words; delete: Words };
  verbs: {
    list(ctx: ServiceContext, input: { slug: string }): Promise<V[]>;
    create(ctx: ServiceContext, input: { slug: string }): Promise<V>;
    get(ctx: ServiceContext, input: { slug: string; id: string }): Promise<V>;
    update(ctx: ServiceContext, input: { slug: string; id: string }): Promise<V>;
    delete(ctx: ServiceContext, input: { slug: string; id: string }): Promise<void>;
  };
}

export function pageChildRoutes<V extends { id: string }>(app: App, guards: ApiGuards, r: PageChildResource<V>): void {
  const list = {
    tag: r.tag,
    path: `/api/v1/pages/{slug}/${r.collection}`,
    params: z.object({ slug: slugParam }),
    notFound: r.notFound,
  } as const;
  const one = {
    ...list,
    path: `${list.path}/{id}`,
    params: z.object({ slug: slugParam, id: idParam(r.id.what, r.id.example) }),
  } as const;
  const { words, verbs } = r;
  /** An operation's summary, and its description when it has one. */
  const said = (w: Words) => ({ summary: w.summary, ...(w.description ? { description: w.description } : {}) });
  const named = (view: V) => ({ id: view.id, label: r.audit.label(view) });
  /** What a create and a change share: their words, the write scope, the body, the view answered and the audit entry. */
  const written = (verb: 'create' | 'update', body: z.ZodType, status: 200 | 201) => ({
    ...said(words[verb]),
    scope: 'write' as const,
    body,
    ok: { status, schema: r.view, description: words[verb].ok },
    audit: { action: `${r.audit.type}.${verb}`, object: (_input: unknown, view: V) => named(view) },
  });
  // A deleted one's label, read before it goes (another organization's is not found: no label, and the delete answers 404).
  const before = (ctx: ServiceContext, input: { slug: string; id: string }) =>
    verbs.get(ctx, input).then(
      (view) => ({ label: r.audit.label(view) }),
      () => undefined,
    );
  apiOperation(app, guards, {
    ...list,
    method: 'get',
    ...(r.listQuery ? { query: r.listQuery } : {}),
    ...said(words.list),
    scope: 'read',
    ok: { status: 200, schema: z.object({ [r.collection]: z.array(r.view) }), description: words.list.ok },
    run: (ctx, input: { slug: string }) => verbs.list(ctx, input),
    respond: (items) => ({ [r.collection]: items }),
  });
  apiOperation(app, guards, {
    ...list,
    method: 'post',
    ...written('create', r.create, 201),
    run: (ctx, input: { slug: string }) => verbs.create(ctx, input),
  });
  apiOperation(app, guards, {
    ...one,
    method: 'get',
    ...said(words.get),
    scope: 'read',
    ok: { status: 200, schema: r.view, description: words.get.ok },
    run: (ctx, input: { slug: string; id: string }) => verbs.get(ctx, input),
  });
  apiOperation(app, guards, {
    ...one,
    method: 'patch',
    ...written('update', r.patch, 200),
    run: (ctx, input: { slug: string; id: string }) => verbs.update(ctx, input),
  });
  apiOperation(app, guards, {
    ...one,
    method: 'delete',
    ...said(words.delete),
    scope: 'write',
    ok: { status: 204, description: words.delete.ok },
    run: (ctx, input: { slug: string; id: string }) => verbs.delete(ctx, input),
    audit: { action: `${r.audit.type}.delete`, object: ({ id }) => ({ id, label: null }), before },
  });
}
