// MCP resources: every page exposed to AI readers as `warden://pages/{slug}`, its Markdown.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError } from '../domain/errors.js';
import { getPublicPage, listPublicPages } from '../services/pages/list-public-pages.js';
import type { CachedPage } from '../services/pages/page-cache.js';
import type { McpContext } from './tool.js';

const PREFIX = 'warden://pages/';
const MARKDOWN = 'text/markdown';

export const PAGE_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${PREFIX}{slug}`,
  name: 'status-page',
  title: 'Status page',
  description:
    'The status of one page as Markdown (the same text get_status returns); slugs come from list_status_pages.',
  mimeType: MARKDOWN,
};

export function listPageResources(context: McpContext): Resource[] {
  return listPublicPages(context, context.scope).map((page) => ({
    uri: `${PREFIX}${page.slug}`,
    name: page.slug,
    title: page.title,
    description: page.description ?? `The status of ${page.title}.`,
    mimeType: MARKDOWN,
  }));
}

/** Throws NotFoundError for an address that names no exposed page. */
export async function readPageResource(uri: string, context: McpContext): Promise<ReadResourceResult> {
  const slug = uri.startsWith(PREFIX) ? uri.slice(PREFIX.length) : '';
  if (slug === '' || slug.includes('/')) throw new NotFoundError('resource', uri);
  const cached = await getPublicPage(context, { slug, ...context.scope });
  return { contents: [{ uri, mimeType: MARKDOWN, text: pageMarkdown(cached) }] };
}

/** The page's Markdown form in English (MCP speaks to machines), the bytes the page cache rendered once. */
export function pageMarkdown(cached: CachedPage): string {
  const { body } = cached.form('markdown', `/s/${cached.page.slug}`, {}, 'en');
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}
