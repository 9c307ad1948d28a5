// The servers a Pterodactyl or Pelican client API key can see: every page of GET /api/client (with ?type=admin-all,
// every server of the panel for a root admin's key), through the target guard.
import { z } from 'zod';
import { ValidationError } from '../../domain/errors.js';
import { HTTP_GET_LIMITS, httpGet } from '../../net/http-get.js';
import type { TargetGuard } from '../../net/target-guard.js';

export const PANEL_LIMITS = {
  /** Servers read at most; a key that sees more is answered with the first ones and `truncated`. */
  servers: 500,
  /** The panel's page size (the client API allows up to 100). */
  perPage: 50,
  /** Milliseconds for each page, connect to last byte. */
  pageTimeoutMs: 10_000,
  /** Bytes read of each page: 50 servers with their allocations and variables fit many times over. */
  pageBytes: HTTP_GET_LIMITS.bodyBytes,
} as const;

const allocationSchema = z.object({
  attributes: z.object({
    ip: z.string().max(255),
    ip_alias: z.string().max(255).nullish(),
    port: z.number().int().min(1).max(65535),
    is_default: z.boolean().default(false),
  }),
});

const serverSchema = z.object({
  object: z.literal('server'),
  attributes: z.object({
    identifier: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
    name: z.string().max(191),
    description: z.string().max(2000).nullish(),
    docker_image: z.string().max(255).nullish(),
    relationships: z
      .object({
        allocations: z.object({ data: z.array(allocationSchema).max(1000) }).optional(),
        egg: z.object({ attributes: z.object({ name: z.string().max(191).nullish() }) }).optional(),
      })
      .optional(),
  }),
});

const listSchema = z.object({
  object: z.literal('list'),
  data: z.array(serverSchema).max(1000),
  meta: z.object({
    pagination: z.object({ current_page: z.number().int(), total_pages: z.number().int() }).optional(),
  }),
});

/** One server of the panel, as discovery needs it. */
export interface PanelServer {
  identifier: string;
  name: string;
  description: string | null;
  dockerImage: string | null;
  eggName: string | null;
  /** The default allocation (the first one when none is marked default); null when the server has none. */
  allocation: { ip: string; ipAlias: string | null; port: number } | null;
}

export interface PanelServers {
  servers: PanelServer[];
  /** True when the key sees more than PANEL_LIMITS.servers servers. */
  truncated: boolean;
}

/** Which servers to list: the key's own (owned or shared), or with `allServers` every server of the panel. */
export interface PanelListOptions {
  /** `?type=admin-all`: a root admin's key sees every server; any other key sees none. */
  allServers?: boolean | undefined;
}

/** Reads every page; a refused key is a 400 on `apiKey`, an unreachable or foreign answer a 400 on `panelUrl`. */
export async function listPanelServers(
  panelUrl: string,
  apiKey: string,
  guard: TargetGuard,
  options: PanelListOptions = {},
): Promise<PanelServers> {
  const servers: PanelServer[] = [];
  for (let page = 1; ; page++) {
    const list = await fetchPage(panelUrl, apiKey, guard, page, options.allServers === true);
    for (const item of list.data) servers.push(panelServer(item.attributes));
    if (servers.length >= PANEL_LIMITS.servers)
      return { servers: servers.slice(0, PANEL_LIMITS.servers), truncated: true };
    const totalPages = list.meta.pagination?.total_pages ?? 1;
    if (page >= totalPages || list.data.length === 0) return { servers, truncated: false };
  }
}

async function fetchPage(panelUrl: string, apiKey: string, guard: TargetGuard, page: number, allServers: boolean) {
  const type = allServers ? '&type=admin-all' : '';
  const path = `/api/client?include=egg&per_page=${PANEL_LIMITS.perPage}&page=${page}${type}`;
  const answer = await panelGet(panelUrl, apiKey, guard, path);
  if ('error' in answer) throw refusedAt('panelUrl', `the panel could not be reached: ${answer.error}`);
  const { status, json, truncated } = answer;
  if (status === 401 || status === 403) throw refusedAt('apiKey', 'the panel refused the key');
  if (status !== 200) throw refusedAt('panelUrl', `the panel answered HTTP ${status} (is panelUrl right?)`);
  if (truncated) throw refusedAt('panelUrl', "the panel's answer is larger than a server list can be");
  const parsed = listSchema.safeParse(json);
  if (!parsed.success) throw refusedAt('panelUrl', "the panel's answer is not the client API's server list");
  return parsed.data;
}

/** One GET of the client API with the key, within a page's time and bytes; the body parsed as JSON (undefined if not). */
export async function panelGet(
  panelUrl: string,
  apiKey: string,
  guard: TargetGuard,
  path: string,
): Promise<{ status: number; json: unknown; truncated: boolean } | { error: string }> {
  // Redirects are not followed: the key would travel to wherever the panel points.
  const result = await httpGet({
    url: `${panelUrl.replace(/\/+$/, '')}${path}`,
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    maxBodyBytes: PANEL_LIMITS.pageBytes,
    signal: AbortSignal.timeout(PANEL_LIMITS.pageTimeoutMs),
    timeoutMs: PANEL_LIMITS.pageTimeoutMs,
    guard,
  });
  if (!result.ok) return { error: result.error };
  const { status, body, truncated } = result.response;
  return { status, json: truncated ? undefined : parseJson(body.toString('utf8')), truncated };
}

function panelServer(attributes: z.output<typeof serverSchema>['attributes']): PanelServer {
  const allocations = attributes.relationships?.allocations?.data ?? [];
  const chosen = (allocations.find((a) => a.attributes.is_default) ?? allocations[0])?.attributes;
  return {
    identifier: attributes.identifier,
    name: attributes.name,
    description: attributes.description ?? null,
    dockerImage: attributes.docker_image ?? null,
    eggName: attributes.relationships?.egg?.attributes.name ?? null,
    allocation: chosen ? { ip: chosen.ip, ipAlias: chosen.ip_alias ?? null, port: chosen.port } : null,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function refusedAt(path: 'panelUrl' | 'apiKey', message: string): ValidationError {
  return new ValidationError([{ path, message }], `The panel at panelUrl answered no server list: ${message}.`);
}
