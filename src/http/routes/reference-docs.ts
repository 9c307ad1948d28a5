// The reference documents as Markdown at /docs/{name}.md (services/reference-docs.ts lists them), read once at start.
import { z } from '@hono/zod-openapi';
import type { ReferenceDoc } from '../../services/reference-docs.js';
import { documentCors } from '../cors.js';
import type { App } from '../env.js';
import { publicBytes, publicResponse } from '../public-response.js';

export function referenceDocsRoutes(app: App, docs: readonly ReferenceDoc[]): void {
  for (const doc of docs) {
    const bytes = publicBytes('text/markdown; charset=utf-8', doc.content);
    const path = `/docs/${doc.name}.md`;
    app.use(path, documentCors);
    app.get(path, (c) => publicResponse(bytes, c.req.header('if-none-match'), c.req.header('accept-encoding')));
  }
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs/{name}.md',
    tags: ['MCP and llms.txt'],
    summary: 'A reference document as Markdown',
    description: `The guides /llms.txt links: ${docs.map((d) => `\`${d.name}\``).join(', ') || 'none installed'}. Cached for 30 s (ETag, CORS).`,
    request: {
      params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'api' }) }),
    },
    responses: {
      200: { description: 'Markdown.', content: { 'text/markdown': { schema: z.string() } } },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
      404: { description: 'No such document.' },
    },
  });
}
