// Minecraft Java Edition: Server List Ping over TCP (handshake, status, ping/pong), with the SRV lookup the game client does.
import type { SrvRecord } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP, type Socket } from 'node:net';
import { z } from 'zod';
import { cleanPlayerNames } from '../domain/player-names.js';
import { bareHost } from '../net/hosts.js';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { openTcp, withSocket } from '../net/socket-exchange.js';
import {
  decodePong,
  decodeStatusResponse,
  encodeHandshake,
  encodePingRequest,
  encodeStatusRequest,
  type Packet,
  PacketReader,
  parseStatus,
  ResponseTooLargeError,
  type ServerStatus,
  SLP_FRAMING_BYTES,
} from './codecs/minecraft-slp.js';
import { host, minPlayers, playerNames, port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

export const MINECRAFT_JAVA_DEFAULT_PORT = 25565;
/** 1.21; proxies that echo the client's protocol answer sensibly to a current one. */
export const MINECRAFT_JAVA_DEFAULT_PROTOCOL = 767;
export const MINECRAFT_JAVA_LIMITS = {
  /** The largest status a vanilla client accepts (32767 characters of at most 3 bytes), framing and pong included. */
  responseBytes: 32767 * 3 + SLP_FRAMING_BYTES + 16,
  /** Share of the timeout the SRV lookup may use, so a slow DNS still leaves time to fall back to port 25565. */
  srvShareOfTimeout: 0.5,
} as const;

export const minecraftJavaConfig = z
  .object({
    host: host(),
    port: port().optional().describe('Defaults to the _minecraft._tcp SRV record of the host, then 25565.'),
    minPlayers: minPlayers(),
    playerNames: playerNames('no extra request: the status carries a sample of at most 12 names'),
    protocolVersion: z
      .number()
      .int({ error: 'expected a whole protocol number' })
      .min(-1, { error: 'expected -1 or a protocol number' })
      .max(0x7fffffff)
      .default(MINECRAFT_JAVA_DEFAULT_PROTOCOL)
      .describe('Protocol number sent in the handshake; -1 means any. Servers answer a status whatever it is.'),
  })
  .strict();

export const minecraftJava = defineProbe({
  id: 'minecraft-java',
  label: 'Minecraft Java Edition server',
  config: minecraftJavaConfig,
  probe: (config, ctx) => probeMinecraftJava(config, ctx),
});

/** Finds SRV records for a name; swapped in tests, which have no DNS of their own. */
export type SrvLookup = (name: string, signal: AbortSignal) => Promise<SrvRecord[]>;

/** The probe with its SRV lookup as a parameter. */
export async function probeMinecraftJava(
  config: z.output<typeof minecraftJavaConfig>,
  ctx: ProbeContext,
  lookupSrv: SrvLookup = systemSrvLookup(),
): Promise<ProbeResult> {
  const target = await resolveJavaTarget(config, ctx, lookupSrv);
  const where = { target: formatTarget(target) };
  const outcome = await exchange(
    target,
    encodeHandshake({ protocolVersion: config.protocolVersion, host: bareHost(config.host), port: target.port }),
    ctx,
  );
  if ('error' in outcome) return { ok: false, error: outcome.error, data: where };
  let status: ServerStatus;
  try {
    status = parseStatus(outcome.json);
  } catch (error) {
    return { ok: false, error: `unexpected response: ${(error as Error).message}`, data: where };
  }
  return describeStatus(status, config, outcome.latencyMs, where.target);
}

export interface JavaTarget {
  host: string;
  port: number;
}

/** The configured port wins; else the _minecraft._tcp SRV record; else port 25565 (also when the lookup fails). */
export async function resolveJavaTarget(
  config: z.output<typeof minecraftJavaConfig>,
  ctx: ProbeContext,
  lookupSrv: SrvLookup,
): Promise<JavaTarget> {
  const name = bareHost(config.host);
  if (config.port !== undefined) return { host: name, port: config.port };
  const fallback = { host: name, port: MINECRAFT_JAVA_DEFAULT_PORT };
  if (isIP(name) !== 0 || ctx.signal.aborted) return fallback;
  const budget = new AbortController();
  const stop = () => budget.abort();
  const timer = setTimeout(stop, ctx.timeoutMs * MINECRAFT_JAVA_LIMITS.srvShareOfTimeout);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const records = await lookupSrv(`_minecraft._tcp.${name.replace(/\.$/, '')}`, budget.signal);
    const best = records
      .filter((record) => record.name.replace(/\.$/, '') !== '' && record.port > 0)
      .sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0];
    return best ? { host: best.name.replace(/\.$/, '').toLowerCase(), port: best.port } : fallback;
  } catch {
    return fallback;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
  }
}

/** SRV lookups through the system's resolvers, or the given servers ("127.0.0.1:5353"); cancelled on abort. */
export function systemSrvLookup(servers?: string[]): SrvLookup {
  return async (name, signal) => {
    const resolver = new Resolver({ tries: 1 });
    if (servers) resolver.setServers(servers);
    const cancel = () => resolver.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      if (signal.aborted) throw new Error('aborted');
      return await resolver.resolveSrv(name);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  };
}

type Outcome = { json: string; latencyMs: number } | { error: string };

/**
 * One connection: handshake and status request, status response, then ping/pong for the latency.
 * A server that answers the status but not the ping is still up; its latency is then the status round trip.
 */
function exchange(target: JavaTarget, handshake: Buffer, ctx: ProbeContext): Promise<Outcome> {
  let status: { json: string; latencyMs: number } | undefined;
  /** The start of what arrived, to show when it turns out not to be a status. */
  let opening = Buffer.alloc(0);
  let received = 0;
  const ended = (pongMs?: number): Outcome => {
    if (status) return { json: status.json, latencyMs: pongMs ?? status.latencyMs };
    if (received === 0) return { error: 'the server closed the connection without answering' };
    return { error: `unexpected response: ${preview(opening)} (${received} bytes, then the server hung up)` };
  };
  const onAbort = () => (status ? ended() : { error: timedOutAfter(ctx.timeoutMs) });
  const open = () => openTcp(ctx, target.host, target.port);
  return withSocket<Socket, Outcome>(open, ctx, onAbort, (socket, exchange) => {
    const { finish } = exchange;
    const reader = new PacketReader(MINECRAFT_JAVA_LIMITS.responseBytes);
    const payload = BigInt(Date.now());
    let sentAt = 0;
    let pingSentAt = 0;
    const onPacket = (packet: Packet) => {
      if (!status) {
        status = { json: decodeStatusResponse(packet), latencyMs: performance.now() - sentAt };
        pingSentAt = performance.now();
        socket.write(encodePingRequest(payload));
        return;
      }
      const echoed = decodePong(packet);
      finish(ended(echoed === payload ? performance.now() - pingSentAt : undefined));
    };

    socket.once('connect', () => {
      sentAt = performance.now();
      socket.write(Buffer.concat([handshake, encodeStatusRequest()]));
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (opening.length < PREVIEW_BYTES)
        opening = Buffer.concat([opening, chunk.subarray(0, PREVIEW_BYTES - opening.length)]);
      try {
        reader.push(chunk);
        for (let packet = reader.next(); packet && !exchange.settled; packet = reader.next()) onPacket(packet);
      } catch (error) {
        if (status) return finish(ended());
        const message = (error as Error).message;
        finish({ error: error instanceof ResponseTooLargeError ? message : `unexpected response: ${message}` });
      }
    });
    socket.once('error', (error) => finish(status ? ended() : { error: describeNetworkError(error, ctx.timeoutMs) }));
    socket.once('close', () => finish(ended()));
  });
}

function describeStatus(
  status: ServerStatus,
  { minPlayers, playerNames }: { minPlayers?: number | undefined; playerNames: boolean },
  latencyMs: number,
  target: string,
): ProbeResult {
  const data: Record<string, unknown> = {
    players: status.players,
    maxPlayers: status.maxPlayers,
    version: status.version,
    protocol: status.protocol,
    motd: status.motd,
    favicon: status.favicon,
    target,
  };
  // The sample is names, kept only when asked for (and then only on the latest result, never in history).
  if (playerNames) data.playerNames = cleanPlayerNames(status.playerSample);
  const parts: string[] = [];
  if (status.players !== null) parts.push(`${status.players}/${status.maxPlayers ?? '?'} players`);
  if (status.version) parts.push(status.version);
  const degraded = minPlayers !== undefined && (status.players ?? 0) < minPlayers;
  if (degraded) parts.push(`fewer than ${minPlayers} players online`);
  return {
    ok: true,
    latencyMs: Math.round(latencyMs),
    message: parts.join(' · ') || 'online',
    data,
    ...(degraded ? { degraded } : {}),
  };
}

const PREVIEW_BYTES = 32;

/** Bytes shown as text when they read as text (an HTTP or SSH banner, say), else as hex. */
function preview(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  return /^[\x20-\x7e\r\n\t]*$/.test(text) ? JSON.stringify(text.trim()) : bytes.toString('hex');
}

function formatTarget({ host, port }: JavaTarget): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
