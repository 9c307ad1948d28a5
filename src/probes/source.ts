// Steam / Source servers: Valve A2S_INFO over UDP, and A2S_PLAYER when the monitor asks for the names online.
import { z } from 'zod';
import { cleanPlayerNames } from '../domain/player-names.js';
import { describeNetworkError } from '../net/network-error.js';
import { type CheckedAddress, openUdp } from '../net/socket-exchange.js';
import {
  type A2sInfo,
  type A2sMessage,
  decodeDatagram,
  decodeMessage,
  encodeInfoRequest,
  encodePlayerRequest,
  SplitReassembler,
} from './codecs/a2s.js';
import { atAddress, exchangeOver, stopwatch } from './exchange.js';
import { gameServer, playerNames } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

/** What one A2S_INFO check accepts from the server before giving up on it. */
export const SOURCE_LIMITS = {
  /** Split parts kept at once; an info reply needs one or two. */
  maxSplitParts: 16,
  /** Reassembled bytes kept at once. */
  maxSplitBytes: 32 * 1024,
  /** Datagrams read in one check, whatever they are. */
  maxDatagrams: 64,
  /** Challenges answered before the server is declared to be looping. */
  maxChallenges: 3,
  /** Share of the timeout the player list may take after the info reply; a server that ignores A2S_PLAYER costs no more. */
  playersShareOfTimeout: 0.5,
} as const;

export const sourceConfig = z
  .object({ ...gameServer(27015, 'The query port (usually the game port).'), playerNames: playerNames() })
  .strict();

export const source = defineProbe({
  id: 'source',
  label: 'Steam / Source (A2S) server',
  config: sourceConfig,
  probe: atAddress(async (config, ctx, address) => {
    const info = await query(address, config.port, ctx, INFO_QUERY);
    if ('error' in info) return { ok: false, error: info.error };
    const result = describeInfo(info.reply, info.latencyMs, config.minPlayers);
    if (config.playerNames) await addPlayerNames(result, address, config.port, ctx);
    return result;
  }),
});

/**
 * The names from A2S_PLAYER, on a result that already holds the info: servers that hide their players (or never
 * answer) leave the check as it was, with `playerNames` absent, within a share of the timeout.
 */
async function addPlayerNames(result: ProbeResult, target: CheckedAddress, port: number, ctx: ProbeContext) {
  const timeoutMs = Math.max(1, Math.floor(ctx.timeoutMs * SOURCE_LIMITS.playersShareOfTimeout));
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
  const players = await query(target, port, { ...ctx, signal, timeoutMs }, PLAYER_QUERY);
  if ('error' in players) return;
  result.data = { ...result.data, playerNames: cleanPlayerNames(players.reply.map((player) => player.name)) };
}

/** What one exchange asks and which reply ends it. */
interface A2sQuery<Reply> {
  request: (challenge?: Buffer) => Buffer;
  pick: (message: A2sMessage) => Reply | undefined;
  /** The reply's name in errors: "an info reply". */
  what: string;
}

const INFO_QUERY: A2sQuery<A2sInfo> = {
  request: encodeInfoRequest,
  pick: (message) => (message.type === 'info' ? message.info : undefined),
  what: 'an info reply',
};

const PLAYER_QUERY: A2sQuery<{ name: string }[]> = {
  request: encodePlayerRequest,
  pick: (message) => (message.type === 'players' ? message.players : undefined),
  what: 'a player reply',
};

function describeInfo(info: A2sInfo, latencyMs: number, minPlayers: number | undefined): ProbeResult {
  const degraded = minPlayers !== undefined && info.players < minPlayers;
  const summary = `${info.players}/${info.maxPlayers} players${info.map ? `, ${info.map}` : ''}`;
  return {
    ok: true,
    latencyMs,
    message: degraded ? `${summary} (fewer than ${minPlayers})` : summary,
    degraded,
    data: {
      name: info.name,
      map: info.map,
      game: info.game,
      players: info.players,
      maxPlayers: info.maxPlayers,
      bots: info.bots,
      version: info.version,
      passwordProtected: info.passwordProtected,
      vac: info.vac,
      // The port players join on, when the server names it (the query port may differ): the page's steam:// link.
      ...(info.gamePort ? { gamePort: info.gamePort } : {}),
      ...wipeOf(info.keywords),
    },
  };
}

/**
 * When the server was last wiped, where its keywords tell: Rust advertises `born<unix seconds>` among its tags (the
 * player alerts' `wipe` change reads it). A tag that does not parse, or a time before 2000, tells nothing.
 */
function wipeOf(keywords: string | undefined): { wipedAt?: number } {
  const tag = keywords
    ?.split(',')
    .map((k) => k.trim())
    .find((k) => /^born\d{9,11}$/.test(k));
  const seconds = tag === undefined ? Number.NaN : Number(tag.slice(4));
  return seconds >= 946_684_800 ? { wipedAt: seconds * 1000 } : {};
}

type QueryOutcome<Reply> = { reply: Reply; latencyMs: number } | { error: string };

/** One exchange on a connected UDP socket: request, answer challenges, reassemble splits, stop at the wanted reply. */
function query<Reply>(
  target: CheckedAddress,
  queryPort: number,
  ctx: ProbeContext,
  asked: A2sQuery<Reply>,
): Promise<QueryOutcome<Reply>> {
  const open = () => openUdp(target, queryPort);
  return exchangeOver(open, ctx, (socket, { finish, after }) => {
    const reassembler = new SplitReassembler({
      maxParts: SOURCE_LIMITS.maxSplitParts,
      maxBytes: SOURCE_LIMITS.maxSplitBytes,
    });
    const fail = (error: string) => finish({ error });
    let request = asked.request();
    let sinceSent = stopwatch();
    let datagrams = 0;
    let challenges = 0;
    const send = () => {
      sinceSent = stopwatch();
      try {
        socket.send(request, (error) => {
          if (error) fail(describeUdpError(error, queryPort, ctx.timeoutMs));
        });
      } catch (error) {
        // send() throws synchronously on a socket closed under it; this runs in event callbacks, where a throw would escape.
        fail(describeUdpError(error, queryPort, ctx.timeoutMs));
      }
    };
    // UDP may drop the request; one resend halfway through the budget costs little and saves a false alarm.
    after(Math.max(1, Math.floor(ctx.timeoutMs / 2)), send);

    socket.on('error', (error) => fail(describeUdpError(error, queryPort, ctx.timeoutMs)));
    socket.on('message', (datagram) => {
      try {
        datagrams += 1;
        if (datagrams > SOURCE_LIMITS.maxDatagrams)
          return fail(`unexpected response: more than ${SOURCE_LIMITS.maxDatagrams} packets without ${asked.what}`);
        const decoded = decodeDatagram(datagram);
        const message = decoded.kind === 'single' ? decoded.message : reassembler.add(decoded);
        if (!message) return;
        const reply = decodeMessage(message);
        const wanted = asked.pick(reply);
        if (wanted !== undefined) return finish({ reply: wanted, latencyMs: sinceSent() });
        if (reply.type !== 'challenge')
          return fail(`unexpected response: packet type 0x${hexByte(message[0] ?? 0)} instead of ${asked.what}`);
        challenges += 1;
        if (challenges > SOURCE_LIMITS.maxChallenges)
          return fail(`unexpected response: the server sent ${challenges} challenges without answering`);
        request = asked.request(reply.challenge);
        send();
      } catch (error) {
        fail(`unexpected response: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    // A connected socket only accepts the server's replies and, on most systems, reports a closed port.
    socket.once('connect', () => send());
  });
}

function describeUdpError(error: unknown, queryPort: number, timeoutMs: number): string {
  const described = describeNetworkError(error, timeoutMs);
  return described === 'connection refused'
    ? `connection refused (nothing listening on UDP port ${queryPort})`
    : described;
}

function hexByte(code: number): string {
  return code.toString(16).padStart(2, '0').toUpperCase();
}
