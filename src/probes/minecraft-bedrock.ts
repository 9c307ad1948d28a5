// Minecraft Bedrock Edition: RakNet Unconnected Ping over UDP, answered by a pong carrying the server's advertisement.
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { z } from 'zod';
import { host, minPlayers, port } from './fields.js';
import { describeNetworkError, formatSeconds } from './network-error.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';
import { stripLegacyFormatting } from './wire/minecraft-slp.js';
import { type BedrockAdvertisement, decodeUnconnectedPong, encodeUnconnectedPing, parseBedrockAdvertisement } from './wire/raknet.js';

export const MINECRAFT_BEDROCK_LIMITS = {
  /** A pong is a few hundred bytes; a peer that sends this much without one is not a Bedrock server. */
  responseBytes: 64 * 1024,
  /** UDP loses packets: the ping is sent again this often until a pong arrives or time is up. */
  resendMs: 1000,
  motdChars: 256,
} as const;

export const minecraftBedrockConfig = z
  .object({
    host: host(),
    port: port().default(19132),
    minPlayers: minPlayers(),
  })
  .strict();

export type MinecraftBedrockConfig = z.output<typeof minecraftBedrockConfig>;

export const minecraftBedrock = defineProbe({
  id: 'minecraft-bedrock',
  label: 'Minecraft Bedrock Edition server',
  runsOn: ['edge', 'relay'],
  config: minecraftBedrockConfig,
  secrets: [],
  probe: (config, ctx) => probeMinecraftBedrock(config, ctx),
});

export async function probeMinecraftBedrock(config: MinecraftBedrockConfig, ctx: ProbeContext): Promise<ProbeResult> {
  const timedOut = `timed out after ${formatSeconds(ctx.timeoutMs)}`;
  const address = await resolveAddress(config.host.replace(/^\[(.*)\]$/, '$1'), ctx);
  if ('error' in address) return { ok: false, error: address.error };
  if (ctx.signal.aborted) return { ok: false, error: timedOut };
  const outcome = await ping(address.address, address.family, config.port, ctx);
  if ('error' in outcome) return { ok: false, error: outcome.error };
  return describeAdvertisement(outcome.advertisement, config.minPlayers, outcome.latencyMs);
}

type Address = { address: string; family: 4 | 6 } | { error: string };

/** Resolves once, so replies can be matched to the exact address asked (an IP literal comes back normalised). */
async function resolveAddress(name: string, { signal, timeoutMs }: ProbeContext): Promise<Address> {
  // getaddrinfo cannot be cancelled; on abort we stop waiting for it.
  let onAbort = () => {};
  const aborted = new Promise<Address>((resolve) => {
    onAbort = () => resolve({ error: `timed out after ${formatSeconds(timeoutMs)}` });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      lookup(name).then(
        ({ address, family }): Address => ({ address, family: family === 6 ? 6 : 4 }),
        (error): Address => ({ error: describeNetworkError(error, timeoutMs) }),
      ),
      aborted,
    ]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

type Outcome = { advertisement: BedrockAdvertisement; latencyMs: number } | { error: string };

/**
 * Pings from a connected UDP socket: the kernel then drops datagrams from other addresses and reports a closed
 * port (ICMP port unreachable) as ECONNREFUSED. Malformed datagrams are counted and ignored, not fatal.
 */
function ping(address: string, family: 4 | 6, port: number, { signal, timeoutMs }: ProbeContext): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket: Socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    const clientGuid = randomBytes(8).readBigInt64BE();
    /** When each ping left, by the time it carried, for replies that echo it. */
    const sent = new Map<bigint, number>();
    let firstSentAt = 0;
    let received = 0;
    let ignored = 0;
    let lastProblem = '';
    let settled = false;
    let resend: NodeJS.Timeout | undefined;

    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(resend);
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => {});
      try {
        socket.close();
      } catch {
        // Already closed by a failed bind or connect.
      }
      resolve(outcome);
    };
    const onAbort = () => {
      const note = ignored > 0 ? ` (ignored ${ignored} malformed ${ignored === 1 ? 'reply' : 'replies'}: ${lastProblem})` : '';
      finish({ error: `timed out after ${formatSeconds(timeoutMs)}${note}` });
    };
    // The signal is the contract; this timer keeps the promise bounded even for a caller whose signal never fires.
    const deadline = setTimeout(onAbort, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) return onAbort();

    const sendPing = () => {
      const time = BigInt(Date.now()) + BigInt(sent.size);
      sent.set(time, performance.now());
      socket.send(encodeUnconnectedPing({ time, clientGuid }));
    };

    socket.on('error', (error) => finish({ error: describeNetworkError(error, timeoutMs) }));
    socket.on('message', (message, remote) => {
      if (remote.address !== address || remote.port !== port) return;
      received += message.length;
      if (received > MINECRAFT_BEDROCK_LIMITS.responseBytes)
        return finish({ error: `response too large: more than ${MINECRAFT_BEDROCK_LIMITS.responseBytes} bytes without a pong` });
      let pong: ReturnType<typeof decodeUnconnectedPong>;
      try {
        pong = decodeUnconnectedPong(message);
      } catch (error) {
        ignored++;
        lastProblem = (error as Error).message;
        return;
      }
      const now = performance.now();
      // Servers echo the ping's time; when one does not, the first ping gives an upper bound.
      const latencyMs = now - (sent.get(pong.time) ?? firstSentAt);
      try {
        finish({ advertisement: parseBedrockAdvertisement(pong.advertisement), latencyMs });
      } catch (error) {
        finish({ error: `unexpected response: ${(error as Error).message}` });
      }
    });
    socket.connect(port, address, () => {
      if (settled) return;
      firstSentAt = performance.now();
      sendPing();
      resend = setInterval(sendPing, MINECRAFT_BEDROCK_LIMITS.resendMs);
    });
  });
}

function describeAdvertisement(advertisement: BedrockAdvertisement, minPlayers: number | undefined, latencyMs: number): ProbeResult {
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
  return { ok: true, latencyMs: Math.round(latencyMs), message: parts.join(' · '), data, ...(degraded ? { degraded } : {}) };
}

function plain(text: string): string {
  const flat = stripLegacyFormatting(text).replace(/\s+/g, ' ').trim();
  return flat.length > MINECRAFT_BEDROCK_LIMITS.motdChars ? `${flat.slice(0, MINECRAFT_BEDROCK_LIMITS.motdChars - 1)}…` : flat;
}
