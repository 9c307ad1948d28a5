// How a player joins a game component from its status page: a steam:// link, a cfx.re link or an address to copy,
// derived from the monitor (type, config, what its last check saw) unless the component overrides or hides it.
import { z } from 'zod';
import { SEPARATE_QUERY_PORT, SOURCE_GAME_OLD_IDS, SOURCE_GAME_PORTS } from './join-source-games.js';

export const JOIN_KINDS = ['steam', 'copy', 'link'] as const;
export type JoinKind = (typeof JOIN_KINDS)[number];

/** The usual ports, left out of a copied address (players type the host alone). */
export const MINECRAFT_JAVA_PORT = 25565;
export const MINECRAFT_BEDROCK_PORT = 19132;

const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?)+$|^[0-9A-Fa-f:.]+$|^\[[0-9A-Fa-f:.]+\]$/;
const ADDRESS_MESSAGE = 'expected a host or host:port such as play.example.com or 203.0.113.5:27015';
const URL_MESSAGE = 'expected a steam:// or https:// URL';

/** host, host:port or [v6]:port; the port from 1 to 65535. */
export function isJoinAddress(text: string): boolean {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text) ?? /^([0-9A-Fa-f:.]+)$/.exec(text);
  if (!match?.[1] || text.length > 260 || !HOST.test(match[1])) return false;
  const port = match[2] === undefined ? 1 : Number(match[2]);
  return port >= 1 && port <= 65535;
}

/** steam: or https: only: a page never links a visitor to javascript:, data: or plain http. */
export function isJoinUrl(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'steam:' || (url.protocol === 'https:' && url.hostname !== '');
  } catch {
    return false;
  }
}

export const joinCustomSchema = z
  .object({
    address: z
      .string()
      .trim()
      .refine(isJoinAddress, { error: ADDRESS_MESSAGE })
      .optional()
      .describe('Address players copy: host or host:port.'),
    url: z
      .string()
      .trim()
      .refine(isJoinUrl, { error: URL_MESSAGE })
      .optional()
      .describe('A steam:// or https:// link.'),
  })
  .strict()
  .refine((custom) => custom.address !== undefined || custom.url !== undefined, {
    error: 'expected an address, a url or both',
  });

/** A component's join setting: derived from its monitor, hidden, or its own address and/or link. */
export const joinSettingSchema = z
  .union([z.enum(['auto', 'hidden']), joinCustomSchema], {
    error: 'expected "auto", "hidden" or an object with an address and/or a url',
  })
  .describe(
    'How players join from the page: "auto" (from the monitor: steam://connect for Source games, the address for ' +
      'Minecraft, cfx.re or connect host:port for FiveM), "hidden", or { address?, url? } (host[:port]; steam:// or https://).',
  );
export type JoinSetting = z.output<typeof joinSettingSchema>;

export const snapshotJoinSchema = z
  .object({
    kind: z
      .enum(JOIN_KINDS)
      .describe('steam: a steam://connect link; link: an https:// link (cfx.re/join); copy: an address to copy'),
    label: z.string().describe('What the button shows: the address, or the link without its scheme'),
    address: z.string().optional().describe('Text players copy (host[:port], or "connect host:port" for FiveM)'),
    url: z.string().optional().describe('steam:// or https:// link'),
  })
  .describe('How to join the game server');
export type JoinAction = z.infer<typeof snapshotJoinSchema>;

/** What the join is derived from: the monitor's type and config, and the data of its last successful check. */
export interface JoinSource {
  type: string;
  config: Record<string, unknown>;
  data?: Record<string, unknown> | null;
}

/** The component's join action, or null when it has none (hidden, or a monitor players do not join). */
export function joinAction(source: JoinSource | null, setting: JoinSetting = 'auto'): JoinAction | null {
  if (setting === 'hidden') return null;
  if (setting !== 'auto') return customJoin(setting);
  return source ? derivedJoin(source) : null;
}

function customJoin(custom: { address?: string; url?: string }): JoinAction | null {
  const { address, url } = custom;
  if (url !== undefined) {
    const kind = url.startsWith('steam:') ? 'steam' : 'link';
    return { kind, label: address ?? url.replace(/^https:\/\/|^steam:\/\//, ''), url, ...(address ? { address } : {}) };
  }
  return address === undefined ? null : { kind: 'copy', label: address, address };
}

function derivedJoin({ type, config, data }: JoinSource): JoinAction | null {
  const host = typeof config.host === 'string' ? config.host.trim() : '';
  if (host === '') return null;
  const port = integer(config.port);
  const seen = data ?? {};
  switch (type) {
    case 'source':
      return steamJoin(host, integer(seen.gamePort) ?? port ?? 27015);
    case 'minecraft-java':
      return copyJoin(hostPort(host, port === MINECRAFT_JAVA_PORT ? undefined : port));
    case 'minecraft-bedrock':
      return copyJoin(hostPort(host, port === MINECRAFT_BEDROCK_PORT ? undefined : port));
    case 'fivem':
      return fivemJoin(host, port ?? 30120, seen.joinCode);
    case 'gamedig':
      return gamedigJoin(typeof config.game === 'string' ? config.game : '', host, port, seen);
    default:
      return null;
  }
}

function gamedigJoin(game: string, host: string, port: number | undefined, seen: Record<string, unknown>) {
  if (game === 'minecraft') return copyJoin(hostPort(host, port === MINECRAFT_JAVA_PORT ? undefined : port));
  if (game === 'mbe' || game === 'minecraftbe')
    return copyJoin(hostPort(host, port === undefined || port === MINECRAFT_BEDROCK_PORT ? undefined : port));
  if (['gta5f', 'fivem', 'rdr2r', 'redm'].includes(game)) return fivemJoin(host, port ?? 30120, seen.joinCode);
  const id = Object.hasOwn(SOURCE_GAME_PORTS, game) ? game : SOURCE_GAME_OLD_IDS[game];
  if (id === undefined || !Object.hasOwn(SOURCE_GAME_PORTS, id)) return null;
  // A configured port is the query port; it is also the game port unless the game queries on another one.
  const configured = SEPARATE_QUERY_PORT.has(id) ? undefined : port;
  return steamJoin(host, integer(seen.gamePort) ?? configured ?? SOURCE_GAME_PORTS[id] ?? undefined);
}

function steamJoin(host: string, port: number | undefined): JoinAction {
  const address = hostPort(host, port);
  return { kind: 'steam', label: address, address, url: `steam://connect/${address}` };
}

function copyJoin(address: string): JoinAction {
  return { kind: 'copy', label: address, address };
}

/** cfx.re/join/<code> when the server gave its join code, else the console command players paste. */
function fivemJoin(host: string, port: number, joinCode: unknown): JoinAction {
  if (typeof joinCode === 'string' && /^[a-z0-9]{4,12}$/i.test(joinCode)) {
    const label = `cfx.re/join/${joinCode}`;
    return { kind: 'link', label, url: `https://${label}` };
  }
  const address = `connect ${hostPort(host, port)}`;
  return { kind: 'copy', label: address, address };
}

/** host[:port], an IPv6 address in brackets. */
export function hostPort(host: string, port: number | undefined): string {
  const bare = host.replace(/\.$/, '');
  if (port === undefined) return bare;
  return `${bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare}:${port}`;
}

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535 ? value : undefined;
}
