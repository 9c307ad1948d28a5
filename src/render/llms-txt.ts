// /llms.txt and /llms-full.txt (llmstxt.org): an index of the public pages, the reference docs and the API, and the same inlined.
import type { Snapshot } from '../domain/snapshot.js';
import { translator } from './i18n/index.js';
import { escapeMarkdown, renderMarkdown } from './markdown.js';

export interface LlmsDocument {
  /** "API guide". */
  title: string;
  /** One line: what a reader finds in it. */
  summary: string;
  /** Absolute address of the Markdown (e.g. {base}/docs/api.md). */
  url: string;
  content: string;
}

export interface LlmsApiOperation {
  method: string;
  path: string;
  summary: string;
}

export interface LlmsInput {
  /** Public address of the service, without a trailing slash. */
  baseUrl: string;
  /** The snapshots of the pages exposed to AI readers, in the order they are listed. */
  snapshots: Snapshot[];
  /** True on a page's custom domain: the files then speak of that page only. */
  onCustomDomain: boolean;
  docs: LlmsDocument[];
  /** Operations of the OpenAPI document, summarized inline by llms-full.txt (the document itself is linked). */
  operations: LlmsApiOperation[];
}

export interface LlmsRendering {
  contentType: 'text/plain; charset=utf-8';
  body: string;
}

export const SERVICE_NAME = 'Warden';
const SERVICE_LINE = 'status pages and monitoring for game servers and web services';
const MCP_TOOLS = '`list_status_pages`, `get_status`, `list_incidents`';

/** The index: every item is a Markdown link with a one-line note. */
export function renderLlmsTxt(input: LlmsInput): LlmsRendering {
  const sections = [
    header(input),
    section('Status pages', pageLinks(input), 'No status page is public here.'),
    section(
      'Docs',
      input.docs.map((doc) => linkItem(doc.title, doc.url, doc.summary)),
      'No reference documents are installed.',
    ),
    section(
      'API',
      apiLinks(input).map((link) => linkItem(link.title, link.url, link.summary)),
      '',
    ),
  ];
  return text(sections);
}

/** The same outline, each linked document inlined under its own heading (headings of inlined documents moved down two levels). */
export function renderLlmsFullTxt(input: LlmsInput): LlmsRendering {
  const pages = input.snapshots.map((snapshot) =>
    // In English, whatever the page's language: llms.txt is read by machines.
    inlined(
      snapshot.page.title,
      markdownUrl(snapshot.page),
      renderMarkdown(snapshot, { i18n: translator('en', snapshot.page.timeZone) }).body,
    ),
  );
  // The docs link each other relatively; the pages' Markdown has absolute links only (and user text that must stay as written).
  const docs = input.docs.map((doc) => inlined(doc.title, doc.url, absoluteLinks(doc.content, doc.url)));
  const sections = [
    header(input) +
      '\n\nThis file inlines what /llms.txt links: the Markdown of every public status page, the reference documents and a' +
      ' summary of the HTTP API. Headings of inlined documents are moved down two levels; each names its source.',
    section('Status pages', pages, 'No status page is public here.'),
    section('Docs', docs, 'No reference documents are installed.'),
    section('API', apiDetails(input), ''),
  ];
  return text(sections);
}

function text(sections: string[]): LlmsRendering {
  return { contentType: 'text/plain; charset=utf-8', body: sections.filter((s) => s !== '').join('\n\n') + '\n' };
}

function header(input: LlmsInput): string {
  const only = input.onCustomDomain ? input.snapshots[0] : undefined;
  const summary = only
    ? `The status page of ${escapeMarkdown(only.page.title)}, served by ${SERVICE_NAME}: ${SERVICE_LINE}.`
    : `${SERVICE_NAME}: ${SERVICE_LINE}. It publishes status pages with the overall state, components, uptime, live player counts, incidents and maintenance.`;
  const detail =
    'Each status page is available as Markdown (linked below), as JSON (`status.json` beside it), as an RSS incident feed and as a live' +
    ' WebSocket stream. Programs read the same data through the JSON API, AI agents through the MCP endpoint. Times are UTC;' +
    ' times in JSON are epoch milliseconds.';
  return `# ${SERVICE_NAME}\n\n> ${summary}\n\n${detail}`;
}

function section(title: string, items: string[], empty: string): string {
  if (items.length === 0) return empty ? `## ${title}\n\n${empty}` : '';
  const separator = items.every((item) => item.startsWith('- ')) ? '\n' : '\n\n';
  return `## ${title}\n\n${items.join(separator)}`;
}

/** A list item linking `url`; `title` and `note` are Markdown already (user text is escaped by the caller). */
function linkItem(title: string, url: string, note: string): string {
  return `- [${title}](${url})${note ? `: ${note}` : ''}`;
}

function markdownUrl(page: Snapshot['page']): string {
  return `${page.url}/status.md`;
}

function pageLinks(input: LlmsInput): string[] {
  return input.snapshots.map(({ page }) => {
    const title = escapeMarkdown(page.title);
    return linkItem(
      title,
      markdownUrl(page),
      page.description ? escapeMarkdown(page.description) : `The status of ${title}.`,
    );
  });
}

function apiLinks(input: LlmsInput): { title: string; url: string; summary: string }[] {
  return [
    {
      title: 'OpenAPI 3.1 document',
      url: `${input.baseUrl}/api/openapi.json`,
      summary: 'every HTTP endpoint with its parameters, responses and errors',
    },
    {
      title: 'API reference',
      url: `${input.baseUrl}/docs`,
      summary: 'the same document, browsable, with requests tried from the browser',
    },
    {
      title: 'MCP endpoint',
      url: `${input.baseUrl}/mcp`,
      summary: `Model Context Protocol over Streamable HTTP (POST, stateless, no credentials); tools ${MCP_TOOLS}`,
    },
  ];
}

function apiDetails(input: LlmsInput): string[] {
  const [openapi, reference, mcp] = apiLinks(input) as [ApiLink, ApiLink, ApiLink];
  const lines = [
    `### ${openapi.title}`,
    '',
    `Source: <${openapi.url}> (linked, not inlined: fetch it for parameters and response schemas; browsable at <${reference.url}>).`,
  ];
  if (input.operations.length > 0) {
    lines.push('', '| Operation | Summary |', '| --- | --- |');
    for (const op of input.operations)
      lines.push(`| \`${op.method.toUpperCase()} ${op.path.replace(/[`|]/g, '')}\` | ${escapeMarkdown(op.summary)} |`);
  }
  const mcpBlock = [
    `### ${mcp.title}`,
    '',
    `Source: <${mcp.url}>`,
    '',
    `${mcp.summary}. Protocol version 2025-06-18; JSON-RPC answers come back as JSON with status 200; resources \`warden://pages/{slug}\`.`,
  ];
  return [lines.join('\n'), mcpBlock.join('\n')];
}

type ApiLink = ReturnType<typeof apiLinks>[number];

/** A document under a `###` heading: its own title when it starts with one, then where it comes from. */
function inlined(title: string, url: string, content: string): string {
  const lines = demoteHeadings(content.trim()).split('\n');
  const source = `Source: <${url}>`;
  if (/^### /.test(lines[0] ?? '')) return [lines[0], '', source, ...lines.slice(1)].join('\n');
  return [`### ${escapeMarkdown(title)}`, '', source, '', ...lines].join('\n');
}

/** Moves ATX headings down two levels (at most h6), leaving code blocks alone. */
export function demoteHeadings(markdown: string): string {
  return mapOutsideCode(markdown, (line) =>
    line.replace(/^(#{1,6})(?=\s|$)/, (hashes) => '#'.repeat(Math.min(hashes.length + 2, 6))),
  );
}

/** Relative link targets (`](states.md)`) made absolute against the document's address, since the file is read elsewhere. */
export function absoluteLinks(markdown: string, base: string): string {
  return mapOutsideCode(markdown, (line) =>
    line.replace(/\]\(([^)\s]+)\)/g, (whole, target: string) => {
      if (/^([a-z][a-z0-9+.-]*:|#)/i.test(target)) return whole;
      try {
        return `](${new URL(target, base).href})`;
      } catch {
        return whole;
      }
    }),
  );
}

function mapOutsideCode(markdown: string, map: (line: string) => string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== null) {
        if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
        return line;
      }
      if (opener) {
        fence = opener;
        return line;
      }
      return map(line);
    })
    .join('\n');
}
