// Fake game-server APIs on node:http for probe tests: FiveM's endpoints, a Pterodactyl panel and Discord's REST API.
import type { ServerResponse } from 'node:http';
import { type FakeServer, sendEndlessBody, sendTrickle, startHttpFake } from './http-fakes.js';

/** What a fake endpoint answers: a JSON value, or a misbehaviour. */
export type FakeAnswer = unknown | { misbehave: 'missing' | 'hang' | 'endless' | 'not-json' | 'trickle' };

function misbehaviour(answer: FakeAnswer): string | undefined {
  return answer !== null && typeof answer === 'object' && 'misbehave' in answer ? String(answer.misbehave) : undefined;
}

export function answer(res: ServerResponse, value: FakeAnswer, status = 200): void {
  switch (misbehaviour(value)) {
    case 'missing':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    case 'hang':
      return;
    case 'endless':
      sendEndlessBody(res, 'application/json');
      return;
    case 'trickle':
      sendTrickle(res);
      return;
    case 'not-json':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
      return;
    default:
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  }
}

export interface FivemFakeState {
  dynamic: FakeAnswer;
  info: FakeAnswer;
  players: FakeAnswer;
}

/** A FiveM server as its HTTP endpoints show it; tests change `state` between checks. */
export function fivemServerState(): FivemFakeState {
  return {
    dynamic: {
      clients: 2,
      gametype: 'Freeroam',
      hostname: '^1Warden ^7Test ^2RP',
      iv: '0',
      mapname: 'Los Santos',
      sv_maxclients: '48',
    },
    info: {
      enhancedHostSupport: true,
      requestSteamTicket: 'off',
      resources: ['mapmanager', 'chat', 'spawnmanager', 'sessionmanager'],
      server: 'FXServer-master SERVER v1.0.0.7290 linux',
      vars: { sv_maxClients: '48', sv_projectName: '^3Warden Test', gametype: 'Freeroam', mapname: 'Los Santos' },
      version: 1_234_567,
    },
    players: [
      { endpoint: '127.0.0.1', id: 1, identifiers: ['license:abc'], name: 'Alice', ping: 40 },
      { endpoint: '127.0.0.1', id: 2, identifiers: ['license:def'], name: 'Bob', ping: 55 },
    ],
  };
}

export async function startFivemFake(
  state: FivemFakeState = fivemServerState(),
): Promise<FakeServer & { state: FivemFakeState }> {
  const server = await startHttpFake((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (path === '/dynamic.json') answer(res, state.dynamic);
    else if (path === '/info.json') answer(res, state.info);
    else if (path === '/players.json') answer(res, state.players);
    else answer(res, { misbehave: 'missing' });
  });
  return Object.assign(server, { state });
}

export interface PterodactylServer {
  current_state: string;
  is_suspended: boolean;
  resources: {
    memory_bytes: number;
    cpu_absolute: number;
    disk_bytes: number;
    network_rx_bytes: number;
    network_tx_bytes: number;
    uptime: number;
  };
}

export interface PterodactylFakeState {
  apiKey: string;
  servers: Record<string, PterodactylServer>;
  /** Overrides every answer, e.g. { misbehave: 'hang' }. */
  override?: FakeAnswer;
  /** Answers every request with a 301 to this URL (a panel moved to https). */
  redirectTo?: string;
}

export function pterodactylServer(state = 'running'): PterodactylServer {
  return {
    current_state: state,
    is_suspended: false,
    resources: {
      memory_bytes: 1_073_741_824,
      cpu_absolute: 37.125,
      disk_bytes: 5_368_709_120,
      network_rx_bytes: 123_456,
      network_tx_bytes: 654_321,
      uptime: state === 'running' ? 3_600_000 : 0,
    },
  };
}

/** The client API of a Pterodactyl panel: GET /api/client/servers/{id}/resources with a Bearer key. */
export async function startPterodactylFake(
  state: PterodactylFakeState,
): Promise<FakeServer & { state: PterodactylFakeState }> {
  const server = await startHttpFake((req, res) => {
    if (state.redirectTo) {
      res.writeHead(301, { location: state.redirectTo }).end();
      return;
    }
    if (state.override !== undefined) {
      answer(res, state.override);
      return;
    }
    const match = /^\/api\/client\/servers\/([^/]+)\/resources$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    if (!match) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Page not found</html>');
      return;
    }
    if (req.headers.authorization !== `Bearer ${state.apiKey}`) {
      answer(res, { errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }] }, 401);
      return;
    }
    const found = state.servers[decodeURIComponent(match[1] ?? '')];
    if (!found) {
      answer(
        res,
        {
          errors: [
            {
              code: 'NotFoundHttpException',
              status: '404',
              detail: 'The requested resource could not be found on the server.',
            },
          ],
        },
        404,
      );
      return;
    }
    answer(res, { object: 'stats', attributes: found });
  });
  return Object.assign(server, { state });
}

export interface DiscordGuild {
  name: string;
  widgetEnabled: boolean;
  presenceCount: number;
  memberCount: number;
  instantInvite: string | null;
  /** Whether the fake's bot is a member (bot mode sees only those). */
  botIsMember: boolean;
}

export interface DiscordFakeState {
  botToken: string;
  guilds: Record<string, DiscordGuild>;
  override?: FakeAnswer;
}

/** Discord's REST API under /api/v10: the guild widget and GET /guilds/{id}?with_counts=true for bots. */
export async function startDiscordFake(
  state: DiscordFakeState,
): Promise<FakeServer & { state: DiscordFakeState; apiBaseUrl: string }> {
  const server = await startHttpFake((req, res) => {
    if (state.override !== undefined) {
      answer(res, state.override);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const widget = /^\/api\/v10\/guilds\/(\d+)\/widget\.json$/.exec(url.pathname);
    const guildPath = /^\/api\/v10\/guilds\/(\d+)$/.exec(url.pathname);
    const id = widget?.[1] ?? guildPath?.[1];
    const guild = id === undefined ? undefined : state.guilds[id];
    if (widget) {
      if (!guild) answer(res, { message: 'Unknown Guild', code: 10004 }, 404);
      else if (!guild.widgetEnabled) answer(res, { message: 'Widget Disabled', code: 50004 }, 403);
      else
        answer(res, {
          id,
          name: guild.name,
          instant_invite: guild.instantInvite,
          channels: [{ id: '1', name: 'General', position: 0 }],
          members: [{ id: '0', username: 'alice', status: 'online' }],
          presence_count: guild.presenceCount,
        });
      return;
    }
    if (guildPath) {
      if (req.headers.authorization !== `Bot ${state.botToken}`)
        answer(res, { message: '401: Unauthorized', code: 0 }, 401);
      else if (!guild) answer(res, { message: 'Unknown Guild', code: 10004 }, 404);
      else if (!guild.botIsMember) answer(res, { message: 'Missing Access', code: 50001 }, 403);
      else
        answer(res, {
          id,
          name: guild.name,
          approximate_member_count: url.searchParams.get('with_counts') === 'true' ? guild.memberCount : undefined,
          approximate_presence_count: url.searchParams.get('with_counts') === 'true' ? guild.presenceCount : undefined,
        });
      return;
    }
    answer(res, { message: '404: Not Found', code: 0 }, 404);
  });
  return Object.assign(server, { state, apiBaseUrl: `${server.url}/api/v10` });
}
