// GET /llms.txt and /llms-full.txt: the pages exposed to AI readers, the reference docs and the API; one page on its custom domain.
import { z } from '@hono/zod-openapi';
import type { Snapshot } from '../../domain/snapshot.js';
import {
  type LlmsApiOperation,
  type LlmsInput,
  type LlmsRendering,
  renderLlmsFullTxt,
  renderLlmsTxt,
} from '../../render/llms-txt.js';
import { AI_LIMITS } from '../../services/ai-limits.js';
import { listPublicPages, loadPublicPages } from '../../services/pages/list-public-pages.js';
import type { ReferenceDoc } from '../../services/reference-docs.js';
import { documentCors } from '../cors.js';
import type { App, PublicPagesDeps } from '../env.js';
import { openApiDocumentConfig } from '../openapi.js';
import { type PublicBytes, publicBytes, publicResponse } from '../public-response.js';

interface LlmsFile {
  path: string;
  render: (input: LlmsInput) => LlmsRendering;
  /** What the file depends on, per page: the index only names pages, the full file inlines their whole snapshot. */
  fingerprint: (snapshot: Snapshot) => string;
  summary: string;
}

const FILES: LlmsFile[] = [
  {
    path: '/llms.txt',
    render: renderLlmsTxt,
    fingerprint: (s) => JSON.stringify([s.page.slug, s.page.title, s.page.description, s.page.url]),
    summary: 'An llmstxt.org index: the public status pages (Markdown), the reference docs and the API',
  },
  {
    path: '/llms-full.txt',
    render: renderLlmsFullTxt,
    fingerprint: (s) => `${s.page.id}@${s.generatedAt}`,
    summary: 'The same, with every status page and reference doc inlined (the OpenAPI document summarized)',
  },
];

export function llmsRoutes(app: App, deps: PublicPagesDeps, docs: readonly ReferenceDoc[]): void {
  // Rendered once per scope (main address or a custom domain) and kept until a page it shows changes.
  const rendered = new Map<string, { inputs: string; bytes: PublicBytes }>();
  let operations: LlmsApiOperation[] | null = null;

  for (const file of FILES) {
    app.use(file.path, documentCors);
    app.get(file.path, async (c) => {
      const { pages, baseUrl } = deps;
      const host = c.req.header('host');
      const snapshots = (await loadPublicPages({ pages }, listPublicPages({ pages }, { host }))).map(
        (cached) => cached.snapshot,
      );
      const onCustomDomain = host !== undefined && pages.pageByDomain(host) !== undefined;
      const scope = `${file.path}\n${onCustomDomain ? host : ''}`;
      const inputs = [baseUrl, ...snapshots.map(file.fingerprint)].join('\n');
      let entry = rendered.get(scope);
      if (entry?.inputs !== inputs) {
        operations ??= apiOperations(app, baseUrl);
        const input: LlmsInput = {
          baseUrl,
          snapshots,
          onCustomDomain,
          docs: docs.map((doc) => ({
            title: doc.title,
            summary: doc.summary,
            url: `${baseUrl}/docs/${doc.name}.md`,
            content: doc.content,
          })),
          operations,
        };
        const output = file.render(input);
        entry = { inputs, bytes: publicBytes(output.contentType, output.body) };
        if (rendered.size >= AI_LIMITS.llmsRenderings && !rendered.has(scope)) rendered.clear();
        rendered.set(scope, entry);
      }
      return publicResponse(entry.bytes, c.req.header('if-none-match'), c.req.header('accept-encoding'));
    });
    app.openAPIRegistry.registerPath({
      method: 'get',
      path: file.path,
      tags: ['MCP and llms.txt'],
      summary: file.summary,
      description:
        'Pages with a password or `aiPolicy: disallow` never appear. On a page’s custom domain, only that page. Cached for 30 s (ETag, CORS).',
      responses: {
        200: { description: 'Markdown, served as text/plain.', content: { 'text/plain': { schema: z.string() } } },
        304: { description: 'Not modified (If-None-Match matched the ETag).' },
      },
    });
  }
}

/** Method, path and summary of every documented operation, for llms-full.txt; none when the document cannot be built. */
function apiOperations(app: App, baseUrl: string): LlmsApiOperation[] {
  try {
    const document = app.getOpenAPI31Document(openApiDocumentConfig(baseUrl));
    const out: LlmsApiOperation[] = [];
    for (const [path, item] of Object.entries(document.paths ?? {}))
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const operation = item?.[method];
        if (operation)
          out.push({ method, path, summary: operation.summary ?? operation.description?.split('\n')[0] ?? '' });
      }
    return out;
  } catch {
    return [];
  }
}
