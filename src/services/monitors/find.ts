// The dashboard's monitor list: filters, a search, an order and keyset pages, answered by one query of the store.
import { z } from 'zod';
import { ValidationError } from '../../domain/errors.js';
import { queryIntIn } from '../../domain/fields.js';
import { LIMITS } from '../../domain/limits.js';
import { monitorTag } from '../../domain/monitor.js';
import { MONITOR_STATES, MONITOR_TYPES } from '../../domain/monitor-type.js';
import type { MonitorPosition, MonitorQuery, MonitorSort } from '../../store/index.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { dependencyGraphOf, unreachableOf } from './dependencies.js';
import { listMonitors, relayKeysById } from './read.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

/** Monitors per page at most (`limit`). */
export const MONITOR_PAGE_MAX = 500;
const SORTS = ['name', 'state', 'latency', 'recent'] as const satisfies readonly MonitorSort[];

export const monitorListQuerySchema = z.object({
  limit: queryIntIn(1, MONITOR_PAGE_MAX)
    .optional()
    .describe(
      `Monitors per page (1 to ${MONITOR_PAGE_MAX}). Given, the answer is a page: \`{ monitors, nextCursor, total }\`.`,
    ),
  cursor: z.string().max(400).optional().describe('The nextCursor of the previous page (same sort).'),
  q: z.string().trim().max(200).optional().describe('Search: a part of the name or key, any case.'),
  state: z
    .enum([...MONITOR_STATES, 'paused'])
    .optional()
    .describe('Enabled monitors in this state, or `paused`: the disabled ones.'),
  type: z.enum(MONITOR_TYPES).optional().describe('Monitors of this type.'),
  tag: monitorTag().optional().describe('Monitors with this tag.'),
  page: z.string().min(1).max(200).optional().describe('Monitors shown by a component of this page (its slug).'),
  relay: z.string().min(1).max(200).optional().describe('Monitors run by this relay (its key or id).'),
  sort: z
    .enum(SORTS)
    .optional()
    .describe(
      'name (the default); state: down, degraded, unknown, up, then paused; latency: latest latency, slowest first, none last; recent: latest state change first. Ties go by name.',
    ),
});

export type MonitorList = { monitors: MonitorWithRelay[]; nextCursor?: string | null; total?: number };

/**
 * Without any parameter, every monitor by key (the list as it always was). With filters or a sort but no `limit`,
 * every match; with `limit`, a page of them, the cursor of the next and how many match in all.
 */
export async function findMonitors(
  ctx: ServiceContext,
  input: z.input<typeof monitorListQuerySchema>,
): Promise<MonitorList> {
  const query = parseInput(monitorListQuerySchema, input);
  if (Object.values(query).every((value) => value === undefined || value === ''))
    return { monitors: await listMonitors(ctx) };
  const organizationId = organizationOf(ctx);
  const sort = query.sort ?? 'name';
  const after = query.cursor === undefined ? undefined : decodeListCursor(query.cursor, sort);
  if (query.cursor !== undefined && after === undefined)
    throw new ValidationError([
      { path: 'cursor', message: `expected the nextCursor of a previous page sorted by ${sort}` },
    ]);
  const limit = query.limit ?? LIMITS.monitorsPerOrganization;
  const filter: MonitorQuery = {
    organizationId,
    search: query.q,
    state: query.state,
    type: query.type,
    tag: query.tag,
    pageId: query.page === undefined ? undefined : await pageIdOf(ctx, query.page),
    relayId: query.relay === undefined ? undefined : await relayIdOf(ctx, query.relay),
    sort,
    after,
    // One more than asked: whether a next page exists without a second query.
    limit: limit + 1,
  };
  const [found, relayKeys, graph] = await Promise.all([
    ctx.store.monitors.query(filter),
    relayKeysById(ctx),
    dependencyGraphOf(ctx),
  ]);
  const rows = found.monitors.slice(0, limit);
  const monitors = rows.map((row) => monitorWithRelay(row.monitor, relayKeys, unreachableOf(graph, row.monitor)));
  if (query.limit === undefined) return { monitors };
  const last = rows.at(-1);
  return {
    monitors,
    nextCursor: found.monitors.length > limit && last ? encodeListCursor(sort, last.position) : null,
    total: found.total,
  };
}

async function pageIdOf(ctx: ServiceContext, slug: string): Promise<string> {
  const page = await ctx.store.pages.findBySlug(slug);
  if (!page || page.organizationId !== organizationOf(ctx))
    throw new ValidationError([{ path: 'page', message: `no page "${slug}" in your organization` }]);
  return page.id;
}

async function relayIdOf(ctx: ServiceContext, keyOrId: string): Promise<string> {
  const organizationId = organizationOf(ctx);
  const relay =
    (await ctx.store.relays.findByKey(organizationId, keyOrId)) ?? (await ctx.store.relays.findById(keyOrId));
  if (!relay || relay.organizationId !== organizationId)
    throw new ValidationError([{ path: 'relay', message: `no relay "${keyOrId}" in your organization` }]);
  return relay.id;
}

const positionSchema = z.tuple([z.number().finite(), z.string().max(400), z.string().max(200)]);

/** Opaque to clients: the sort it belongs to and the position of the page's last monitor. */
export function encodeListCursor(sort: MonitorSort, position: MonitorPosition): string {
  return Buffer.from(JSON.stringify([sort, ...position]), 'utf8').toString('base64url');
}

export function decodeListCursor(cursor: string, sort: MonitorSort): MonitorPosition | undefined {
  try {
    const [cursorSort, ...position] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const parsed = positionSchema.safeParse(position);
    return cursorSort === sort && parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
