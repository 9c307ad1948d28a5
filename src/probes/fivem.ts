// FiveM and RedM servers: the server's own HTTP endpoints (/info.json, /players.json, /dynamic.json).
import { z } from 'zod';
import { cleanPlayerNames } from '../domain/player-names.js';
import { urlHost } from '../net/hosts.js';
import { formatBytes, HTTP_GET_LIMITS, httpGet } from '../net/http-get.js';
import { gameServer, playerNames } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

export const fivemConfig = z
  .object({
    ...gameServer(30120),
    https: z.boolean().default(false).describe('Use https:// instead of http://.'),
    playerNames: playerNames('players.json is then always read to its end'),
  })
  .strict();

export const fivem = defineProbe({
  id: 'fivem',
  label: 'FiveM / RedM server',
  config: fivemConfig,
  targets: ['host', 'port', 'https'],
  probe: async (config, ctx): Promise<ProbeResult> => {
    const { signal } = ctx;
    const base = `${config.https ? 'https' : 'http'}://${urlHost(config.host)}:${config.port}`;
    const read = (path: string, on = signal) => readEndpoint(`${base}${path}`, path, { ...ctx, signal: on });
    // players.json is slow on busy servers and only a fallback count: it is dropped once dynamic.json has given one,
    // unless the monitor asked for the names.
    const playersRead = new AbortController();
    const dropPlayers = () => playersRead.abort();
    if (signal.aborted) dropPlayers();
    else signal.addEventListener('abort', dropPlayers, { once: true });
    const playersAnswer = read('/players.json', playersRead.signal);
    const [dynamic, info] = await Promise.all([read('/dynamic.json'), read('/info.json')]);
    const d = record(dynamic.ok ? dynamic.value : undefined);
    if (count(d.clients) !== undefined && !config.playerNames) dropPlayers();
    const players = await playersAnswer;
    signal.removeEventListener('abort', dropPlayers);
    if (!dynamic.ok && !info.ok) return { ok: false, error: [...new Set([dynamic.error, info.error])].join('; ') };

    const i = record(info.ok ? info.value : undefined);
    const vars = record(i.vars);
    const list = players.ok && Array.isArray(players.value) ? players.value : undefined;
    const online = count(d.clients) ?? list?.length;
    const maxPlayers = count(d.sv_maxclients) ?? count(vars.sv_maxClients);
    const version = text(i.server, serverVersion);
    const data = compact({
      players: online,
      maxPlayers,
      hostname: text(d.hostname ?? vars.sv_projectName ?? vars.sv_hostname, stripColourCodes),
      gametype: text(d.gametype ?? vars.gametype),
      map: text(d.mapname ?? vars.mapname),
      version,
      resources: Array.isArray(i.resources) ? i.resources.length : undefined,
      joinCode: joinCode(vars.web_baseUrl),
      // Only the names: an entry's identifiers (licences, Steam and Discord ids) and endpoint (an address) are never kept.
      playerNames:
        config.playerNames && list
          ? cleanPlayerNames(list.map((p) => text(record(p).name, stripColourCodes)))
          : undefined,
    });
    const degraded = config.minPlayers !== undefined && online !== undefined && online < config.minPlayers;
    const summary = [
      online === undefined ? undefined : `${online}${maxPlayers === undefined ? '' : `/${maxPlayers}`} players`,
      version,
    ].filter((part) => part !== undefined);
    if (summary.length === 0) summary.push('server answered');
    const latencies = [dynamic, info].flatMap((answer) => (answer.ok ? [answer.latencyMs] : []));
    return {
      ok: true,
      latencyMs: Math.min(...latencies),
      message: summary.join(', ') + (degraded ? ` (fewer than ${config.minPlayers})` : ''),
      data,
      degraded,
    };
  },
});

/** The answer of one endpoint, or why there is none. */
type EndpointAnswer = { ok: true; value: unknown; latencyMs: number } | { ok: false; error: string };

async function readEndpoint(url: string, path: string, ctx: ProbeContext): Promise<EndpointAnswer> {
  const result = await httpGet({ ...ctx, url, headers: { accept: 'application/json' } });
  if (!result.ok) return result;
  const { response } = result;
  if (response.status !== 200) return { ok: false, error: `${path} answered HTTP ${response.status}` };
  if (response.truncated)
    return { ok: false, error: `${path} is larger than ${formatBytes(HTTP_GET_LIMITS.bodyBytes)}` };
  try {
    return { ok: true, value: JSON.parse(response.body.toString('utf8')), latencyMs: response.latencyMs };
  } catch {
    return { ok: false, error: `${path} is not valid JSON` };
  }
}

/** FiveM colours names with ^0…^9; status pages show the plain text. */
export function stripColourCodes(name: string): string {
  return name.replace(/\^[0-9]/g, '').trim();
}

/**
 * The server's cfx.re join code, when info.json shares its web_baseUrl ("owner-abc123.users.cfx.re"): the page's
 * join link is then cfx.re/join/abc123.
 */
function joinCode(baseUrl: unknown): string | undefined {
  if (typeof baseUrl !== 'string') return undefined;
  return /^(?:https?:\/\/)?[a-z0-9-]+-([a-z0-9]{4,12})\.users\.cfx\.re\/?$/i.exec(baseUrl.trim())?.[1]?.toLowerCase();
}

/** Longest text kept from a server's self-description. */
const TEXT_CHARS = 200;

/** "FXServer-master SERVER v1.0.0.7290 linux" → "v1.0.0.7290", or the whole string when it has no such part. */
function serverVersion(server: string): string {
  return /\bv\d+(?:\.\d+)+/.exec(server)?.[0] ?? server;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** FiveM sends counts as numbers or as strings ("48"). */
function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function text(value: unknown, shape: (s: string) => string = (s) => s): string | undefined {
  if (typeof value !== 'string') return undefined;
  const shaped = shape(value).slice(0, TEXT_CHARS);
  return shaped === '' ? undefined : shaped;
}

function compact(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}
