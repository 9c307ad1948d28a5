// MCP tool list_incidents: a page's active incidents, and optionally those resolved in the last days.
import { z } from 'zod';
import { snapshotIncidentSchema, snapshotPageSchema } from '../../domain/snapshot.js';
import { renderIncidentList } from '../../render/incident-list.js';
import { AI_LIMITS } from '../../services/ai-limits.js';
import { listPublicIncidents, publicIncidentQuerySchema } from '../../services/pages/list-incidents.js';
import { defineTool } from '../tool.js';

const { limit, days } = AI_LIMITS.incidents;

export const listIncidents = defineTool({
  name: 'list_incidents',
  title: 'List the incidents of a page',
  description:
    'The incidents of one status page, newest first, each with its status, impact, affected components and timeline of updates. ' +
    'Arguments: slug (string, required, from list_status_pages); ' +
    `limit (integer ${limit.min}–${limit.max}, default ${limit.default}); ` +
    'includeResolved (boolean, default false: only active incidents); ' +
    `days (integer ${days.min}–${days.max}, default ${days.default}: with includeResolved, how far back resolved incidents go; active ones are always listed). ` +
    'An unknown slug is a tool error.',
  input: publicIncidentQuerySchema,
  output: z.object({
    page: snapshotPageSchema.pick({ slug: true, title: true, url: true }),
    incidents: z.array(snapshotIncidentSchema).describe('newest first'),
    limit: z.number().int(),
    includeResolved: z.boolean(),
    days: z.number().int(),
  }),
  async run(args, context) {
    const { slug, ...query } = args;
    const { page, incidents } = await listPublicIncidents(context, { ...args, ...context.scope });
    return {
      markdown: renderIncidentList(page, incidents, query),
      structured: { page: { slug: page.slug, title: page.title, url: page.url }, incidents, ...query },
    };
  },
});
