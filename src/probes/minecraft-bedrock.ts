// Minecraft Bedrock Edition: RakNet Unconnected Ping over UDP, answered by a pong carrying the server's advertisement.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:dgram';
import { z } from 'zod';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { type CheckedAddress, lookupHost, openUdp, withSocket } from '../net/socket-exchange.js';
import { stripLegacyFormatting } from './codecs/minecraft-slp.js';
import {
  type BedrockAdvertisement,
  decodeUnconnectedPong,
  encodeUnconnectedPing,
  parseBedrockAdvertisement,
} from './codecs/raknet.js';
import { gameServer } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

export const MINECRAFT_BEDROCK_LIMITS = {
  /** A pong is a few hundred bytes; a peer that sends this much without one is not a Bedrock server. */
  responseBytes: 64 * 1024,
  /** UDP loses packets: the ping is sent again this often until a pong arrives or time is up. */
  resendMs: 1000,
  motdChars: 256,
} as const;

export const minecraftBedrockConfig = z.object(gameServer(19132)).strict();

export const minecraftBedrock = defineProbe({
  id: 'minecraft-bedrock',
  label: 'Minecraft Bedrock Edition server',
  config: minecraftBedrockConfig,
  probe: (config, ctx) => probeMinecraftBedrock(config, ctx),
});

export async function probeMinecraftBedrock(
  config: z.output<typeof minecraftBedrockConfig>,
  ctx: ProbeContext,
): Promise<ProbeResult> {
  // Resolved once, so replies can be matched to the exact address asked.
  const address = await lookupHost(config.host, ctx);
  if ('error' in address) return { ok: false, error: address.error };
  const outcome = await ping(address, config.port, ctx);
  if ('error' in outcome) return { ok: false, error: outcome.error };
  return describeAdvertisement(outcome.advertisement, config.minPlayers, outcome.latencyMs);
}

type Outcome = { advertisement: BedrockAdvertisement; latencyMs: number } | { error: string };

/**
 * Pings from a connected UDP socket: the kernel then drops datagrams from other addresses and reports a closed
 * port (ICMP port unreachable) as ECONNREFUSED. Malformed datagrams are counted and ignored, not fatal.
 */
function ping(target: CheckedAddress, port: number, ctx: ProbeContext): Promise<Outcome> {
  const { address } = target;
  let ignored = 0;
  let lastProblem = '';
  const onAbort = (): Outcome => {
    const note =
      ignored > 0 ? ` (ignored ${ignored} malformed ${ignored === 1 ? 'reply' : 'replies'}: ${lastProblem})` : '';
    return { error: `${timedOutAfter(ctx.timeoutMs)}${note}` };
  };
  const open = () => openUdp(target, port);
  return withSocket<Socket, Outcome>(open, ctx, onAbort, (socket, exchange) => {
    const { finish } = exchange;
    const clientGuid = randomBytes(8).readBigInt64BE();
    /** When each ping left, by the time it carried, for replies that echo it. */
    const sent = new Map<bigint, number>();
    let firstSentAt = 0;
    let received = 0;
    const sendPing = () => {
      const time = BigInt(Date.now()) + BigInt(sent.size);
      sent.set(time, performance.now());
      socket.send(encodeUnconnectedPing({ time, clientGuid }));
    };

    socket.on('error', (error) => finish({ error: describeNetworkError(error, ctx.timeoutMs) }));
    socket.on('message', (message, remote) => {
      if (remote.address !== address || remote.port !== port) return;
      received += message.length;
      if (received > MINECRAFT_BEDROCK_LIMITS.responseBytes)
        return finish({
          error: `response too large: more than ${MINECRAFT_BEDROCK_LIMITS.responseBytes} bytes without a pong`,
        });
      let pong: ReturnType<typeof decodeUnconnectedPong>;
      try {
        pong = decodeUnconnectedPong(message);
      } catch (error) {
        ignored++;
        lastProblem = (error as Error).message;
        return;
      }
      // Servers echo the ping's time; when one does not, the first ping gives an upper bound.
      const latencyMs = performance.now() - (sent.get(pong.time) ?? firstSentAt);
      try {
        finish({ advertisement: parseBedrockAdvertisement(pong.advertisement), latencyMs });
      } catch (error) {
        finish({ error: `unexpected response: ${(error as Error).message}` });
      }
    });
    socket.once('connect', () => {
      if (exchange.settled) return;
      firstSentAt = performance.now();
      sendPing();
      exchange.every(MINECRAFT_BEDROCK_LIMITS.resendMs, sendPing);
    });
  });
}

function describeAdvertisement(
  advertisement: BedrockAdvertisement,
  minPlayers: number | undefined,
  latencyMs: number,
): ProbeResult {
  const clean = (text: string | null) => (text === null ? null : plain(text) || null);
  const data = {
    players: advertisement.players,
    maxPlayers: advertisement.maxPlayers,
    version: advertisement.version,
    protocol: advertisement.protocol,
    motd: plain(advertisement.motd),
    levelName: clean(advertisement.levelName),
    gameMode: clean(advertisement.gameMode),
    edition: advertisement.edition,
  };
  const degraded = minPlayers !== undefined && advertisement.players < minPlayers;
  const parts = [`${advertisement.players}/${advertisement.maxPlayers} players`, advertisement.version];
  if (degraded) parts.push(`fewer than ${minPlayers} players online`);
  return {
    ok: true,
    latencyMs: Math.round(latencyMs),
    message: parts.join(' · '),
    data,
    ...(degraded ? { degraded } : {}),
  };
}

function plain(text: string): string {
  const flat = stripLegacyFormatting(text).replace(/\s+/g, ' ').trim();
  return flat.length > MINECRAFT_BEDROCK_LIMITS.motdChars
    ? `${flat.slice(0, MINECRAFT_BEDROCK_LIMITS.motdChars - 1)}…`
    : flat;
}
