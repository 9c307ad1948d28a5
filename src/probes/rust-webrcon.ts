// Rust servers: WebRCON over WebSocket, asking `serverinfo` (and `playerlist` when the monitor wants the names).
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { cleanPlayerNames } from '../domain/player-names.js';
import { urlHost } from '../net/hosts.js';
import { describeNetworkError } from '../net/network-error.js';
import { openWebSocket } from '../net/socket-exchange.js';
import { exchangeOver, stopwatch } from './exchange.js';
import { gameServer, playerNames, secret } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

/** What one WebRCON check accepts from the server before giving up on it. */
export const RUST_WEBRCON_LIMITS = {
  /** Largest WebSocket message; a serverinfo reply is under 1 KiB, console lines rarely pass a few KiB. */
  maxMessageBytes: 256 * 1024,
  /** All message bytes read in one check, our reply and the console chatter before it together. */
  maxTotalBytes: 1024 * 1024,
  /** Share of the timeout the player list may take after serverinfo; a server slow to list costs the check no more. */
  playersShareOfTimeout: 0.5,
} as const;

export const rustWebrconConfig = z
  .object({
    ...gameServer(28016, 'The RCON port (rcon.port).'),
    password: secret('RCON password'),
    playerNames: playerNames(),
  })
  .strict();

const REJECTED = 'connection rejected (wrong RCON password?)';

/** The fields of Rust's serverinfo reply a status page uses; the others are ignored. */
const serverInfoSchema = z.object({
  Hostname: z.string().optional(),
  /** The build, e.g. "2590.277.1" (network.save.report); `Version` is its first part. Each Rust update changes them. */
  Protocol: z.string().optional(),
  Version: z.number().optional(),
  Players: z.number(),
  MaxPlayers: z.number(),
  Queued: z.number().optional(),
  Joining: z.number().optional(),
  Framerate: z.number().optional(),
  Map: z.string().optional(),
  Uptime: z.number().optional(),
});
type ServerInfo = z.infer<typeof serverInfoSchema>;

export const rustWebrcon = defineProbe({
  id: 'rust-webrcon',
  label: 'Rust server (WebRCON)',
  config: rustWebrconConfig,
  probe: async (config, ctx) => {
    const reply = await askServerInfo(config, ctx);
    if ('error' in reply) return { ok: false, error: hidePassword(reply.error, config.password) };
    const result = describeServerInfo(reply.info, reply.latencyMs, config.minPlayers);
    if (reply.names) result.data = { ...result.data, playerNames: reply.names };
    return result;
  },
});

function describeServerInfo(info: ServerInfo, latencyMs: number, minPlayers: number | undefined): ProbeResult {
  const queue = info.Queued ?? 0;
  const degraded = minPlayers !== undefined && info.Players < minPlayers;
  const summary = `${info.Players}/${info.MaxPlayers} players${queue > 0 ? `, ${queue} queued` : ''}${info.Map ? `, ${info.Map}` : ''}`;
  const data: Record<string, unknown> = { players: info.Players, maxPlayers: info.MaxPlayers, queue };
  if (info.Joining !== undefined) data.joining = info.Joining;
  if (info.Framerate !== undefined) data.framerate = Math.round(info.Framerate * 10) / 10;
  if (info.Hostname !== undefined) data.hostname = info.Hostname;
  const version = info.Protocol ?? (info.Version === undefined ? undefined : String(info.Version));
  if (version !== undefined) data.version = version;
  if (info.Map !== undefined) data.map = info.Map;
  if (info.Uptime !== undefined) data.uptimeSec = info.Uptime;
  return { ok: true, latencyMs, message: degraded ? `${summary} (fewer than ${minPlayers})` : summary, degraded, data };
}

type Reply = { info: ServerInfo; latencyMs: number; names?: string[] } | { error: string };

/**
 * Opens ws://host:port/<password>, sends one serverinfo request and waits for the message carrying its Identifier;
 * then, when the names are asked for, the same with `playerlist` (its failure leaves the serverinfo reply as it was).
 */
function askServerInfo(
  config: { host: string; port: number; password: string; playerNames: boolean },
  ctx: ProbeContext,
): Promise<Reply> {
  const identifier = randomInt(1000, 2 ** 31 - 2);
  const listIdentifier = identifier + 1;
  const started = stopwatch();
  const open = () =>
    openWebSocket(ctx, webrconUrl(config), {
      maxPayload: RUST_WEBRCON_LIMITS.maxMessageBytes,
      perMessageDeflate: false,
      followRedirects: false,
    });
  const asking: Promise<Reply> = exchangeOver(open, ctx, (socket, { finish, after }) => {
    let answered: Extract<Reply, { info: ServerInfo }> | undefined;
    const end = (reply: Reply) => finish(answered ?? reply);
    let opened = false;
    let messages = 0;
    let bytes = 0;
    let sinceSent = stopwatch();
    socket.on('open', () => {
      opened = true;
      sinceSent = stopwatch();
      socket.send(JSON.stringify({ Identifier: identifier, Message: 'serverinfo', Name: 'WebRcon' }));
    });
    socket.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const text = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
      messages += 1;
      bytes += text.length;
      if (bytes > RUST_WEBRCON_LIMITS.maxTotalBytes)
        return end({
          error: `unexpected response: more than ${RUST_WEBRCON_LIMITS.maxTotalBytes / 1024 / 1024} MiB without a serverinfo reply`,
        });
      // Rust broadcasts console and chat lines to every client; only the message echoing our Identifier is the reply.
      const envelope = isBinary ? undefined : parseJson(text.toString('utf8'));
      if (!isRecord(envelope)) return;
      if (answered && envelope.Identifier === listIdentifier)
        return finish({ ...answered, ...playerListNames(envelope.Message) });
      if (answered || envelope.Identifier !== identifier) return;
      const reply = parseServerInfo(envelope.Message, sinceSent());
      if ('error' in reply || !config.playerNames) return finish(reply);
      answered = reply;
      socket.send(JSON.stringify({ Identifier: listIdentifier, Message: 'playerlist', Name: 'WebRcon' }));
      const left = ctx.timeoutMs - started() - 20;
      after(Math.max(1, Math.min(ctx.timeoutMs * RUST_WEBRCON_LIMITS.playersShareOfTimeout, left)), () => end(reply));
    });
    socket.on('error', (error) => end({ error: describeWebSocketError(error, opened, ctx.timeoutMs) }));
    socket.on('close', () => {
      if (answered) return end(answered);
      if (!opened) return finish({ error: REJECTED });
      // Rust accepts the upgrade, then closes at once when the password in the path is wrong.
      finish({ error: messages === 0 ? REJECTED : 'connection closed by the server before it answered serverinfo' });
    });
  });
  // ws puts the whole URL, password included, in the error of an address it cannot use: it is never shown.
  return asking.catch(() => ({ error: 'invalid WebRCON address' }));
}

/** The names of a playerlist reply (a JSON array of players, each with its DisplayName); none when it is not one. */
function playerListNames(message: unknown): { names?: string[] } {
  const list = typeof message === 'string' ? parseJson(message) : undefined;
  if (!Array.isArray(list)) return {};
  return { names: cleanPlayerNames(list.map((player) => (isRecord(player) ? player.DisplayName : undefined))) };
}

function parseServerInfo(message: unknown, latencyMs: number): Reply {
  if (typeof message !== 'string')
    return { error: 'unexpected response: the serverinfo reply carries no Message text' };
  const parsed = serverInfoSchema.safeParse(parseJson(message));
  if (!parsed.success) return { error: `unexpected response: serverinfo returned ${quote(message)}` };
  return { info: parsed.data, latencyMs };
}

/**
 * Rust compares the raw request path with its password, so characters a path allows are sent as they are;
 * the others would change the URL's meaning (`?`, `#`, spaces) and are percent-encoded.
 */
function webrconUrl(config: { host: string; port: number; password: string }): string {
  return `ws://${urlHost(config.host)}:${config.port}/${passwordPath(config.password)}`;
}

function passwordPath(password: string): string {
  return password.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (character) =>
    [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

function describeWebSocketError(error: Error & { code?: string }, opened: boolean, timeoutMs: number): string {
  const status = /^Unexpected server response: (\d+)/.exec(error.message)?.[1];
  if (status === '401' || status === '403') return REJECTED;
  if (status) return `unexpected response: HTTP ${status} instead of a WebSocket upgrade`;
  if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
    return `unexpected response: a message larger than ${RUST_WEBRCON_LIMITS.maxMessageBytes / 1024} KiB`;
  if (error.code?.startsWith('WS_ERR_')) return `unexpected response: ${error.message}`;
  // Dropping the connection during the handshake is the other way a server turns a password away.
  if (!opened && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) return REJECTED;
  return describeNetworkError(error, timeoutMs);
}

/** Belt and braces: run.ts scrubs secrets too, but an error built from a library message must not depend on it. */
function hidePassword(text: string, password: string): string {
  return text.split(password).join('***').split(passwordPath(password)).join('***');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return JSON.stringify(line.length > 100 ? `${line.slice(0, 99)}…` : line);
}
