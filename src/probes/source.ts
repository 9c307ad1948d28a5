// Steam / Source servers: Valve A2S_INFO over UDP.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { type CheckedAddress, openUdp } from '../net/socket-exchange.js';
import { type A2sInfo, decodeDatagram, decodeMessage, encodeInfoRequest, SplitReassembler } from './codecs/a2s.js';
import { atAddress, exchangeOver, stopwatch } from './exchange.js';
import { gameServer } from './fields.js';
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
} as const;

export const sourceConfig = z.object(gameServer(27015, 'The query port (usually the game port).')).strict();

export const source = defineProbe({
  id: 'source',
  label: 'Steam / Source (A2S) server',
  config: sourceConfig,
  probe: atAddress(async (config, ctx, address) => {
    const info = await queryInfo(address, config.port, ctx);
    if ('error' in info) return { ok: false, error: info.error };
    return describeInfo(info.info, info.latencyMs, config.minPlayers);
  }),
});

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
    },
  };
}

type QueryOutcome = { info: A2sInfo; latencyMs: number } | { error: string };

/** One exchange on a connected UDP socket: request, answer challenges, reassemble splits, stop at the info reply. */
function queryInfo(target: CheckedAddress, queryPort: number, ctx: ProbeContext): Promise<QueryOutcome> {
  const open = () => openUdp(target, queryPort);
  return exchangeOver(open, ctx, (socket, { finish, after }) => {
    const reassembler = new SplitReassembler({
      maxParts: SOURCE_LIMITS.maxSplitParts,
      maxBytes: SOURCE_LIMITS.maxSplitBytes,
    });
    const fail = (error: string) => finish({ error });
    let request = encodeInfoRequest();
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
          return fail(`unexpected response: more than ${SOURCE_LIMITS.maxDatagrams} packets without an info reply`);
        const decoded = decodeDatagram(datagram);
        const message = decoded.kind === 'single' ? decoded.message : reassembler.add(decoded);
        if (!message) return;
        const reply = decodeMessage(message);
        if (reply.type === 'info') return finish({ info: reply.info, latencyMs: sinceSent() });
        if (reply.type === 'other')
          return fail(`unexpected response: packet type 0x${hexByte(reply.code)} instead of an info reply`);
        challenges += 1;
        if (challenges > SOURCE_LIMITS.maxChallenges)
          return fail(`unexpected response: the server sent ${challenges} challenges without answering`);
        request = encodeInfoRequest(reply.challenge);
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
