// Steam / Source servers: Valve A2S_INFO over UDP.
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { describeNetworkError, formatSeconds } from './network-error.js';
import { defineProbe, type ProbeResult } from './probe.js';
import { type A2sInfo, decodeDatagram, decodeMessage, encodeInfoRequest, SplitReassembler } from './wire/a2s.js';

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

export const sourceConfig = z
  .object({
    host: host(),
    port: port().default(27015).describe('The query port (usually the game port).'),
    minPlayers: minPlayers(),
  })
  .strict();

export const source = defineProbe({
  id: 'source',
  label: 'Steam / Source (A2S) server',
  runsOn: ['edge', 'relay'],
  config: sourceConfig,
  secrets: [],
  probe: async (config, { signal, timeoutMs }) => {
    const timedOut: ProbeResult = { ok: false, error: `timed out after ${formatSeconds(timeoutMs)}` };
    if (signal.aborted) return timedOut;
    let address: { address: string; family: number };
    try {
      address = await raceAbort(resolveHost(config.host), signal);
    } catch (error) {
      return signal.aborted ? timedOut : { ok: false, error: describeNetworkError(error, timeoutMs) };
    }
    if (signal.aborted) return timedOut;
    const info = await queryInfo(address, config.port, signal, timeoutMs);
    if ('error' in info) return info.error;
    return describeInfo(info.info, info.latencyMs, config.minPlayers);
  },
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
    },
  };
}

type QueryOutcome = { info: A2sInfo; latencyMs: number } | { error: ProbeResult };

/** One exchange on a connected UDP socket: request, answer challenges, reassemble splits, stop at the info reply. */
function queryInfo(
  target: { address: string; family: number },
  queryPort: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<QueryOutcome> {
  return new Promise((resolve) => {
    const socket: Socket = createSocket(target.family === 6 ? 'udp6' : 'udp4');
    const reassembler = new SplitReassembler({ maxParts: SOURCE_LIMITS.maxSplitParts, maxBytes: SOURCE_LIMITS.maxSplitBytes });
    let request = encodeInfoRequest();
    let sentAt = 0;
    let datagrams = 0;
    let challenges = 0;
    // UDP may drop the request; one resend halfway through the budget costs little and saves a false alarm.
    const resend = setTimeout(() => send(), Math.max(1, Math.floor(timeoutMs / 2)));

    let done = false;
    const finish = (outcome: QueryOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(resend);
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => {});
      try {
        socket.close();
      } catch {
        // Already closed: nothing left to release.
      }
      resolve(outcome);
    };
    const fail = (error: string) => finish({ error: { ok: false, error } });
    const onAbort = () => fail(`timed out after ${formatSeconds(timeoutMs)}`);
    const send = () => {
      sentAt = performance.now();
      try {
        socket.send(request, (error) => {
          if (error) fail(describeUdpError(error, queryPort, timeoutMs));
        });
      } catch (error) {
        // send() throws synchronously on a socket closed under it; this runs in event callbacks, where a throw would escape.
        fail(describeUdpError(error, queryPort, timeoutMs));
      }
    };

    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (error) => fail(describeUdpError(error, queryPort, timeoutMs)));
    socket.on('message', (datagram) => {
      try {
        datagrams += 1;
        if (datagrams > SOURCE_LIMITS.maxDatagrams)
          return fail(`unexpected response: more than ${SOURCE_LIMITS.maxDatagrams} packets without an info reply`);
        const decoded = decodeDatagram(datagram);
        const message = decoded.kind === 'single' ? decoded.message : reassembler.add(decoded);
        if (!message) return;
        const reply = decodeMessage(message);
        if (reply.type === 'info') return finish({ info: reply.info, latencyMs: Math.round(performance.now() - sentAt) });
        if (reply.type === 'other') return fail(`unexpected response: packet type 0x${hexByte(reply.code)} instead of an info reply`);
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
    socket.connect(queryPort, target.address, () => send());
  });
}

async function resolveHost(name: string): Promise<{ address: string; family: number }> {
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  const family = isIP(bare);
  if (family !== 0) return { address: bare, family };
  return lookup(bare);
}

/** Rejects with an AbortError when the signal fires first; the lookup itself cannot be cancelled. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeUdpError(error: unknown, queryPort: number, timeoutMs: number): string {
  const described = describeNetworkError(error, timeoutMs);
  return described === 'connection refused' ? `connection refused (nothing listening on UDP port ${queryPort})` : described;
}

function hexByte(code: number): string {
  return code.toString(16).padStart(2, '0').toUpperCase();
}
