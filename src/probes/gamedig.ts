// Any game GameDig knows; runs on relays only, where the gamedig package is loaded.
import { z } from 'zod';
import { bareHost } from '../net/hosts.js';
import { timedOutAfter } from '../net/network-error.js';
import { lookupHost, untilAborted } from '../net/socket-exchange.js';
import { importPackage } from '../runtime/launcher.js';
import { host, minPlayers, port } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

/** How GameDig's own timeouts are fitted inside the check's timeout. */
export const GAMEDIG_LIMITS = {
  /** GameDig's attempt ends this long before the check's timeout (or a tenth of it, if less), so it fails on its own terms. */
  marginMs: 250,
  /** Longest wait for one packet; GameDig's default, since a longer one slows checks of servers that skip optional replies. */
  maxSocketTimeoutMs: 2000,
} as const;

export const gamedigConfig = z
  .object({
    game: z
      .string()
      .regex(/^[a-z0-9_-]{1,64}$/, { error: 'expected a GameDig game id such as "valheim"' })
      .describe('GameDig game id.'),
    host: host(),
    port: port().optional().describe("Defaults to the game's usual query port."),
    minPlayers: minPlayers(),
  })
  .strict();

export const gamedig = defineProbe({
  id: 'gamedig',
  label: 'Any game (via relay)',
  runsOn: ['relay'],
  config: gamedigConfig,
  probe: async (config, ctx) => {
    const { signal, timeoutMs } = ctx;
    const timedOut: ProbeResult = { ok: false, error: timedOutAfter(timeoutMs) };
    if (signal.aborted) return timedOut;
    // GameDig looks names up itself: under a restricting guard the host is resolved and checked here, and GameDig
    // gets the checked address, so it has nothing left to look up.
    let target = bareHost(config.host);
    if (ctx.guard.restricted) {
      const address = await lookupHost(config.host, ctx);
      if ('error' in address) return { ok: false, error: address.error };
      target = address.address;
    }
    let library: GamedigLibrary;
    try {
      // Loaded on first use: the edge server never runs this type and need not load GameDig's many protocols.
      // gamedig 5 ships no type declarations; GamedigLibrary below describes the part used here.
      library = await importPackage<GamedigLibrary>('gamedig');
    } catch {
      return { ok: false, error: 'the gamedig package is not installed on this relay' };
    }
    if (!isKnownGame(library, config.game)) return { ok: false, error: `unknown GameDig game id "${config.game}"` };
    if (signal.aborted) return timedOut;

    const outcome = await queryWithin(library, { ...config, host: target }, signal, timeoutMs);
    if ('aborted' in outcome) return timedOut;
    if ('failure' in outcome) return { ok: false, error: describeFailure(outcome.failure, timeoutMs) };
    return describeState(outcome.state, config.minPlayers);
  },
});

/** The part of GameDig 5's API this probe uses. */
interface GamedigLibrary {
  GameDig: new () => GamedigInstance;
  games: Record<string, { extra?: { old_id?: string } }>;
  protocols: Record<string, unknown>;
}

interface GamedigInstance {
  query(options: Record<string, unknown>): Promise<GamedigState>;
  /** Internal: the instance's own UDP socket, closed once its query is over. */
  queryRunner?: { udpSocket?: { socket?: { close(): void } | null } };
}

interface GamedigState {
  name?: string;
  map?: string;
  version?: string;
  numplayers?: number;
  maxplayers?: number;
  players?: unknown[];
  bots?: unknown[];
  ping?: number;
  password?: boolean;
  /** host:port players join on (GameDig's own guess when the server names no game port). */
  connect?: string;
  raw?: { numbots?: unknown };
}

function isKnownGame(library: GamedigLibrary, game: string): boolean {
  if (game.startsWith('protocol-')) return game.slice('protocol-'.length) in library.protocols;
  return (
    Object.hasOwn(library.games, game) || Object.values(library.games).some((entry) => entry.extra?.old_id === game)
  );
}

type Outcome = { state: GamedigState } | { failure: unknown } | { aborted: true };

/**
 * GameDig takes no AbortSignal, so the query is raced against it. Each query gets its own GameDig instance
 * (the shared one keeps a UDP socket for the life of the process) whose socket is closed as soon as the query
 * settles, or at once on abort; GameDig's remaining timers are all shorter than the check's timeout.
 */
function queryWithin(
  library: GamedigLibrary,
  config: z.output<typeof gamedigConfig>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Outcome> {
  const attemptTimeout = Math.max(50, timeoutMs - Math.min(GAMEDIG_LIMITS.marginMs, Math.floor(timeoutMs / 10)));
  const socketTimeout = Math.max(25, Math.min(GAMEDIG_LIMITS.maxSocketTimeoutMs, Math.floor(attemptTimeout / 2)));
  const instance = new library.GameDig();
  const release = () => {
    try {
      instance.queryRunner?.udpSocket?.socket?.close();
    } catch {
      // Never opened, or already closed.
    }
  };
  const query = Promise.resolve()
    .then(() =>
      instance.query({
        type: config.game,
        host: bareHost(config.host),
        port: config.port,
        givenPortOnly: config.port !== undefined,
        checkOldIDs: true,
        socketTimeout,
        attemptTimeout,
        maxRetries: 1,
        // Counts come with the info reply; the player list would cost another round trip per check.
        requestPlayers: false,
        requestRules: false,
      }),
    )
    .then(
      (state): Outcome => ({ state }),
      (failure: unknown): Outcome => ({ failure }),
    );
  query.then(release, release);

  return untilAborted(
    () => query,
    signal,
    () => {
      release();
      return { aborted: true };
    },
  );
}

function describeState(state: GamedigState, minPlayers: number | undefined): ProbeResult {
  const players = typeof state.numplayers === 'number' ? state.numplayers : (state.players?.length ?? 0);
  const maxPlayers = typeof state.maxplayers === 'number' ? state.maxplayers : 0;
  const bots = typeof state.raw?.numbots === 'number' ? state.raw.numbots : (state.bots?.length ?? 0);
  const map = state.map ?? '';
  const degraded = minPlayers !== undefined && players < minPlayers;
  const summary = `${players}/${maxPlayers} players${map ? `, ${map}` : ''}`;
  const result: ProbeResult = {
    ok: true,
    message: degraded ? `${summary} (fewer than ${minPlayers})` : summary,
    degraded,
    data: { name: state.name ?? '', map, players, maxPlayers, bots, version: state.version ?? '' },
  };
  if (typeof state.password === 'boolean') result.data = { ...result.data, passwordProtected: state.password };
  const gamePort = Number(/:(\d{1,5})$/.exec(state.connect ?? '')?.[1]);
  if (gamePort >= 1 && gamePort <= 65535) result.data = { ...result.data, gamePort };
  // GameDig reports 0 when it measured nothing; run.ts then measures the whole check.
  if (typeof state.ping === 'number' && state.ping > 0) result.latencyMs = state.ping;
  return result;
}

/** GameDig wraps each attempt's error in "Failed all N attempts" and keeps the real reasons only in the stack. */
function describeFailure(failure: unknown, timeoutMs: number): string {
  const error = failure instanceof Error ? failure : new Error(String(failure));
  const reasons = [...(error.stack ?? '').matchAll(/^Attempt #\d+[^\n]*:\n(?:\w*Error: )?([^\n]*)/gm)].map(
    (match) => match[1] ?? '',
  );
  const reason = reasons.at(-1) ?? error.message;
  if (/Timed out/i.test(reason)) return timedOutAfter(timeoutMs);
  if (/Connection Refused|ECONNREFUSED/i.test(reason)) return 'connection refused';
  if (/ENOTFOUND|EAI_NONAME|Invalid domain/i.test(reason)) return 'host name not found';
  if (/^Invalid game/.test(reason)) return `unknown GameDig game id (${reason.slice('Invalid game: '.length)})`;
  return `unexpected response: ${reason}`;
}
