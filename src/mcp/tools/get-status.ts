// MCP tool get_status: one page's Markdown and its snapshot.
import { z } from 'zod';
import {
  type LiveData,
  liveDataSchema,
  type Snapshot,
  snapshotComponentSchema,
  snapshotSchema,
} from '../../domain/snapshot.js';
import { publicSlugSchema } from '../../services/pages/list-incidents.js';
import { getPublicPage } from '../../services/pages/list-public-pages.js';
import { pageMarkdown } from '../resources.js';
import { defineTool } from '../tool.js';

/**
 * The snapshot without the components' chart series: hundreds of numbers per component that no answer needs and that
 * would crowd an assistant's context (uptime windows, the daily strip and live data stay). Nor the names of who is
 * online, even on a page that shows them: they are for its readers, not for assistants (README.md, "Who is online").
 */
const statusSchema = snapshotSchema.extend({
  components: z.array(
    snapshotComponentSchema
      .omit({ charts: true })
      .extend({ live: liveDataSchema.omit({ playerNames: true }).nullable() }),
  ),
});

function forAssistants(snapshot: Snapshot): z.infer<typeof statusSchema> {
  return {
    ...snapshot,
    components: snapshot.components.map(({ charts: _charts, live, ...component }) => ({
      ...component,
      live: live && withoutNames(live),
    })),
  };
}

function withoutNames({ playerNames: _names, ...live }: LiveData): Omit<LiveData, 'playerNames'> {
  return live;
}

export const getStatus = defineTool({
  name: 'get_status',
  title: 'Get the status of a page',
  description:
    'The current status of one status page: overall state, every component with its state, uptime (24 h, 7 d, 30 d, 90 d) and live data ' +
    '(players, latency, version), active incidents, incidents resolved in the last 14 days, and maintenance. Returns the page as Markdown ' +
    'and the snapshot as structured content (times in epoch milliseconds). ' +
    'Arguments: slug (string, 1–64 characters, required), from list_status_pages. An unknown slug is a tool error.',
  input: z.object({ slug: publicSlugSchema }).strict(),
  output: statusSchema,
  async run({ slug }, context) {
    const cached = await getPublicPage(context, { slug, ...context.scope });
    return { markdown: pageMarkdown(cached), structured: forAssistants(cached.snapshot) };
  },
});
