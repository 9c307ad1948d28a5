// MCP tool list_status_pages: the pages exposed to AI readers, with their overall state.
import { z } from 'zod';
import { pageStateSchema } from '../../domain/snapshot.js';
import { escapeMarkdown } from '../../render/markdown.js';
import { STATE_WORD } from '../../render/page-wording.js';
import { AI_LIMITS } from '../../services/ai-limits.js';
import { listPublicPages, loadPublicPages } from '../../services/pages/list-public-pages.js';
import { defineTool } from '../tool.js';

const pageEntrySchema = z.object({
  slug: z.string().describe('pass it to get_status and list_incidents'),
  title: z.string(),
  description: z.string().nullable(),
  url: z.string().describe('absolute URL of the HTML page'),
  markdownUrl: z.string().describe('absolute URL of the page as Markdown'),
  state: pageStateSchema,
  label: z.string().describe('the overall state in words, e.g. "All systems operational"'),
});

export const listStatusPages = defineTool({
  name: 'list_status_pages',
  title: 'List status pages',
  description:
    'Lists the public status pages of this Warden (game servers and web services): slug, title, description, overall state and links. ' +
    `No arguments. At most ${AI_LIMITS.publicPages} pages, by slug. Use a slug with get_status or list_incidents.`,
  input: z.object({}).strict(),
  output: z.object({ pages: z.array(pageEntrySchema).describe('by slug') }),
  async run(_args, context) {
    const listed = await loadPublicPages(context, listPublicPages(context, context.scope));
    const entries = listed.map(({ snapshot }) => ({
      slug: snapshot.page.slug,
      title: snapshot.page.title,
      description: snapshot.page.description,
      url: snapshot.page.url,
      markdownUrl: `${snapshot.page.url}/status.md`,
      state: snapshot.overall.state,
      label: snapshot.overall.label,
    }));
    return { markdown: pageList(entries), structured: { pages: entries } };
  },
});

function pageList(entries: z.infer<typeof pageEntrySchema>[]): string {
  if (entries.length === 0) return '# Status pages\n\n_No status page is available._\n';
  const lines = entries.map(
    (p) =>
      `- **${escapeMarkdown(p.title)}** (slug \`${p.slug}\`): ${STATE_WORD[p.state]}, ${escapeMarkdown(p.label)}` +
      (p.description ? `. ${escapeMarkdown(p.description)}` : '') +
      ` <${p.url}>`,
  );
  return `# Status pages\n\n${lines.join('\n')}\n`;
}
