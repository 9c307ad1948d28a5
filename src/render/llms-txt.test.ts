import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, hostileSnapshot, operationalSnapshot } from '../../test/fakes/snapshots.js';
import type { Snapshot } from '../domain/snapshot.js';
import { absoluteLinks, demoteHeadings, type LlmsInput, renderLlmsFullTxt, renderLlmsTxt } from './llms-txt.js';
import { renderMarkdown } from './markdown.js';

const BASE = 'https://status.example.com';

function page(snapshot: Snapshot, slug: string, title: string, description: string | null = null): Snapshot {
  return { ...snapshot, page: { ...snapshot.page, slug, title, description, url: `${BASE}/s/${slug}` } };
}

function input(overrides: Partial<LlmsInput> = {}): LlmsInput {
  return {
    baseUrl: BASE,
    snapshots: [
      page(operationalSnapshot(), 'alpha', 'Alpha Network', 'Survival and creative'),
      page(activeIncidentSnapshot(), 'beta', 'Beta Realm'),
    ],
    onCustomDomain: false,
    docs: [
      {
        title: 'API guide',
        summary: 'Endpoints, keys and limits.',
        url: `${BASE}/docs/api.md`,
        content:
          '# API guide\n\nSee [states](states.md) and [the spec](https://example.org/x).\n\n## Keys\n\n```sh\n# not a heading\ncurl …\n```\n',
      },
      {
        title: 'Relay guide',
        summary: 'Probes from your network.',
        url: `${BASE}/docs/relay.md`,
        content: 'No heading here.\n\n### Deep\n',
      },
    ],
    operations: [
      { method: 'get', path: '/api/v1/status/{slug}', summary: 'The snapshot of a status page' },
      { method: 'post', path: '/mcp', summary: 'The MCP endpoint' },
    ],
    ...overrides,
  };
}

/** H2 titles in order, and the items of a section. */
function outline(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3));
}

describe('llms.txt', () => {
  it('follows the llmstxt.org layout: H1, blockquote, then H2 sections of links', () => {
    const { contentType, body } = renderLlmsTxt(input());
    expect(contentType).toBe('text/plain; charset=utf-8');
    const lines = body.split('\n');
    expect(lines[0]).toBe('# Warden');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> Warden: status pages and monitoring/);
    expect(outline(body)).toEqual(['Status pages', 'Docs', 'API']);
    expect(body.match(/^#+ /gm)).toHaveLength(4);
  });

  it('links each page’s Markdown, the docs and the API', () => {
    const { body } = renderLlmsTxt(input());
    expect(body).toContain(`- [Alpha Network](${BASE}/s/alpha/status.md): Survival and creative\n`);
    expect(body).toContain(`- [Beta Realm](${BASE}/s/beta/status.md): The status of Beta Realm.\n`);
    expect(body).toContain(`- [API guide](${BASE}/docs/api.md): Endpoints, keys and limits.\n`);
    expect(body).toContain(`- [Relay guide](${BASE}/docs/relay.md): Probes from your network.\n`);
    expect(body).toContain(`- [OpenAPI 3.1 document](${BASE}/api/openapi.json): `);
    expect(body).toContain(`- [API reference](${BASE}/docs): `);
    expect(body).toContain(`- [MCP endpoint](${BASE}/mcp): `);
    // Every item of every section is a link.
    for (const line of body.split('\n').filter((l) => l.startsWith('- ')))
      expect(line).toMatch(/^- \[[^\]]+\]\(https:\/\/[^)\s]+\)/);
  });

  it('names the page in the summary on its custom domain', () => {
    const { body } = renderLlmsTxt(
      input({ onCustomDomain: true, snapshots: [page(operationalSnapshot(), 'alpha', 'Alpha Network')] }),
    );
    expect(body).toContain('> The status page of Alpha Network, served by Warden');
    expect(body.match(/\/status\.md\)/g)).toHaveLength(1);
  });

  it('says so when no page is public', () => {
    const { body } = renderLlmsTxt(input({ snapshots: [] }));
    expect(body).toContain('## Status pages\n\nNo status page is public here.\n');
  });

  it('escapes titles and descriptions so they cannot break the links', () => {
    const hostile = hostileSnapshot();
    const { body } = renderLlmsTxt(
      input({ snapshots: [page(hostile, 'evil', 'Evil](https://phish.example) [x', '<script>*bold*')] }),
    );
    expect(body).toContain(`- [Evil\\](https://phish.example) \\[x](${BASE}/s/evil/status.md): \\<script\\>\\*bold\\*`);
  });
});

describe('llms-full.txt', () => {
  it('keeps the outline and inlines every page’s Markdown and every doc, each under an H3 naming its source', () => {
    const data = input();
    const { contentType, body } = renderLlmsFullTxt(data);
    expect(contentType).toBe('text/plain; charset=utf-8');
    expect(body.startsWith('# Warden\n\n> Warden: ')).toBe(true);
    expect(outline(body)).toEqual(['Status pages', 'Docs', 'API']);
    expect(body).toContain(`### Alpha Network\n\nSource: <${BASE}/s/alpha/status.md>\n`);
    expect(body).toContain(`### API guide\n\nSource: <${BASE}/docs/api.md>\n`);
    // A document without a heading of its own gets one.
    expect(body).toContain(`### Relay guide\n\nSource: <${BASE}/docs/relay.md>\n\nNo heading here.\n\n##### Deep`);
    // The page's Markdown is all there, its headings two levels down.
    for (const snapshot of data.snapshots) {
      const markdown = renderMarkdown(snapshot).body;
      for (const line of markdown.split('\n').filter((l) => l !== '' && !l.startsWith('#')))
        expect(body).toContain(line);
    }
    expect(body).toContain('#### Components');
    expect(body).not.toMatch(/^## Components/m);
  });

  it('summarizes the API operations and links the OpenAPI document rather than inlining it', () => {
    const { body } = renderLlmsFullTxt(input());
    expect(body).toContain(`Source: <${BASE}/api/openapi.json> (linked, not inlined`);
    expect(body).toContain('| `GET /api/v1/status/{slug}` | The snapshot of a status page |');
    expect(body).toContain('| `POST /mcp` | The MCP endpoint |');
    expect(body).toContain('Protocol version 2025-06-18');
  });

  it('makes relative links of inlined docs absolute and leaves code alone', () => {
    const { body } = renderLlmsFullTxt(input());
    expect(body).toContain(`See [states](${BASE}/docs/states.md) and [the spec](https://example.org/x).`);
    expect(body).toContain('```sh\n# not a heading\ncurl …\n```');
    expect(body).toContain('#### Keys');
  });

  it('inlines a page’s Markdown as written, hostile user text included', () => {
    const hostile = page(hostileSnapshot(), 'evil', 'Evil');
    const { body } = renderLlmsFullTxt(input({ snapshots: [hostile], docs: [] }));
    const markdown = renderMarkdown(hostile).body;
    for (const line of markdown.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) expect(body).toContain(line);
    expect(body).not.toMatch(/^#{1,6} not a heading/m);
  });

  it('is the same bytes for the same input', () => {
    expect(renderLlmsFullTxt(input()).body).toBe(renderLlmsFullTxt(input()).body);
  });
});

describe('heading and link rewriting', () => {
  it('moves ATX headings down two levels, at most to h6, outside fenced code', () => {
    expect(demoteHeadings('# A\n## B\n#### D\n##### E\n###### F\n#hashtag\n~~~\n# code\n~~~\n# G')).toBe(
      '### A\n#### B\n###### D\n###### E\n###### F\n#hashtag\n~~~\n# code\n~~~\n### G',
    );
  });

  it('resolves relative targets against the document, keeping absolute ones and anchors', () => {
    expect(
      absoluteLinks(
        '[a](states.md#x) [b](../README.md) [c](#local) [d](mailto:x@y.z) [e](https://x.y/)',
        `${BASE}/docs/api.md`,
      ),
    ).toBe(`[a](${BASE}/docs/states.md#x) [b](${BASE}/README.md) [c](#local) [d](mailto:x@y.z) [e](https://x.y/)`);
  });
});
